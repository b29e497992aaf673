import { readFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from './drawnSecrets';
import { REPO_ROOT } from './engramProcess';

/**
 * The labeled secret sets of test/fixtures/secrets/ (see its README): each line is a secret in
 * its surrounding text, or a look-alike that holds none. Random parts are written as
 * `{{alphabet:length}}` and drawn from a generator seeded by the case's id, so every run sees the
 * same values and no token-shaped literal sits in the repository for scanners to flag.
 */

export interface SecretCase {
  readonly id: string;
  readonly kind: string;
  /** The text as Engram would be given it: a line of code, a command, a prompt. */
  readonly text: string;
  /** The raw value that must not be stored; null for a look-alike. */
  readonly secret: string | null;
}

/** Every labeled set, in the order they were written (README). */
export const SECRET_SETS = ['development', 'heldout-1', 'heldout-2', 'heldout-3', 'heldout-4', 'heldout-5', 'heldout-6', 'heldout-7', 'heldout-8', 'heldout-9', 'heldout-10', 'heldout-11', 'heldout-12', 'heldout-13', 'heldout-14', 'heldout-15', 'heldout-16', 'heldout-17', 'heldout-18', 'heldout-19', 'heldout-20', 'heldout-21', 'heldout-22', 'heldout-23', 'heldout-24', 'heldout-25', 'heldout-26', 'heldout-27', 'heldout-28', 'heldout-29', 'heldout-30', 'heldout-31', 'heldout-32', 'heldout-33', 'heldout-34', 'heldout-35', 'heldout-36', 'heldout-37', 'heldout-38', 'heldout-39', 'heldout-40', 'heldout-41', 'heldout-42', 'heldout-43', 'heldout-44', 'heldout-45', 'heldout-46', 'heldout-47', 'heldout-48', 'heldout-49', 'heldout-50', 'heldout-51', 'heldout-52', 'heldout-53', 'heldout-54', 'heldout-55', 'heldout-56', 'heldout-57', 'heldout-58', 'heldout-59', 'heldout-60'] as const;

export type SecretSet = (typeof SECRET_SETS)[number];

/**
 * First runs of the held-out rounds, before anything was tuned on them (README): the secrets
 * stored and the look-alikes redacted. Every case of every round is redacted as labeled now,
 * but for OPEN_CASES.
 */
export const FIRST_RUNS = {
  'heldout-2': { stored: ['k015', 'k052', 'k057', 'k059', 'k066', 'k075', 'k077', 'k080', 'k081', 'k082', 'k083', 'k084'], lookAlikesRedacted: [] },
  'heldout-3': {
    stored: ['r018', 'r041', 'r063', 'r065', 'r080', 'r083', 'r091', 'r107', 'r115', 'r120', 'r121', 'r125', 'r134', 'r148'],
    lookAlikesRedacted: ['v001', 'v038', 'v044'],
  },
  'heldout-4': {
    stored: ['g078', 'g086', 'g087', 'g118', 'g155', 'g162', 'g168', 'g169', 'g170', 'g181', 'g190', 'g197', 'g202', 'g203', 'f041', 'f065', 'f066', 'f067'],
    lookAlikesRedacted: [
      'q001', 'q002', 'q005', 'q006', 'q007', 'q008', 'q009', 'q010', 'q011', 'q013', 'q015', 'q016', 'q017', 'q018', 'q019', 'q025', 'q033', 'q040', 'q042', 'q043',
      'q044', 'q047', 'q053', 'q054', 'q058', 'q059', 'q060', 'q061', 'q064', 'q065', 'q067', 'q069', 'q071', 'q074', 'q076', 'q077', 'q079', 'q091', 'q092', 'q135',
      'q153', 'q157', 'q158', 'q159',
    ],
  },
  'heldout-5': {
    stored: [
      'y004', 'y006', 'y007', 'y008', 'y009', 'y010', 'y011', 'y012', 'y013', 'y014', 'y015', 'y016', 'y017', 'y018', 'y019', 'y020', 'y021', 'y022', 'y023', 'y027',
      'y028', 'y029', 'y030', 'y031', 'y032', 'y033', 'y034', 'y035', 'y036', 'y037', 'y038', 'y042', 'y043', 'y044', 'y045', 'y046', 'y047', 'y048', 'y049', 'y050',
      'y051', 'y052', 'y054', 'y055', 'y056', 'y057', 'y058', 'y059', 'y060', 'y062', 'y063', 'y069', 'y074', 'y075', 'y077', 'y078', 'y080', 'y081', 'y082', 'y092',
      'y093', 'y095', 'y108', 'y113', 'y123', 'y124', 'y125', 'y126', 'y127', 'y128', 'y129', 'y131', 'y132', 'y133', 'y134',
    ],
    lookAlikesRedacted: ['z003', 'z007', 'z037', 'z038', 'z039', 'z040', 'z049', 'z050'],
  },
  'heldout-6': {
    stored: [
      's004', 's012', 's018', 's020', 's021', 's023', 's024', 's028', 's029', 's030', 's031', 's032', 's035', 's061', 's063', 's076', 's078', 's088', 's092', 's123',
      's124', 's125', 's136', 's144', 's146', 's149', 's157', 's158', 's161', 's162', 's165', 's172', 's174', 's190', 's191', 's192', 's200', 's201', 's202', 's243',
    ],
    lookAlikesRedacted: [
      't005', 't006', 't007', 't009', 't010', 't011', 't012', 't013', 't014', 't015', 't033', 't049', 't051', 't052', 't053', 't059',
    ],
  },
  'heldout-7': {
    stored: [
      'c002', 'c009', 'c024', 'c035', 'c036', 'c037', 'c038', 'c040', 'c050', 'c051', 'c061', 'c062', 'c080', 'c083', 'c084', 'c094', 'c096', 'c104', 'c112', 'c123',
      'c128', 'c131', 'c132', 'c146', 'c152', 'c153', 'c154', 'c155', 'c156', 'c157', 'c167', 'c177', 'c180', 'c183', 'c192', 'c193', 'c194', 'c195', 'c196', 'c197',
      'c199', 'c204', 'c207', 'c209', 'c211',
    ],
    lookAlikesRedacted: [
      'u007', 'u010', 'u023', 'u024', 'u026', 'u027', 'u028', 'u032', 'u033', 'u055', 'u062', 'u064', 'u086',
    ],
  },
  'heldout-8': {
    stored: [
      'e001', 'e007', 'e031', 'e034', 'e039', 'e049', 'e051', 'e056', 'e061', 'e062', 'e069', 'e072', 'e074', 'e081', 'e082', 'e084', 'e100', 'e102', 'e105',
      'e114', 'e116', 'e133', 'e135', 'e137', 'e157', 'e158', 'e162', 'e165', 'e167', 'e168', 'e169', 'e173', 'e174', 'e175', 'e178', 'e179', 'e180',
    ],
    lookAlikesRedacted: [
      'i001', 'i002', 'i008', 'i013', 'i014', 'i022', 'i025', 'i026', 'i030', 'i036', 'i039', 'i053', 'i054', 'i061',
    ],
  },
  'heldout-9': {
    stored: [
      'a002', 'a006', 'a010', 'a023', 'a025', 'a027', 'a029', 'a032', 'a036', 'a037', 'a047', 'a049', 'a050', 'a051', 'a052', 'a057', 'a059', 'a060', 'a061', 'a065',
      'a081', 'a089', 'a094', 'a097', 'a098', 'a101', 'a104', 'a106', 'a125', 'a130', 'a133', 'a135', 'a136', 'a138', 'a144', 'a150', 'a153', 'a159', 'a161', 'a163',
      'a164', 'a166', 'a167', 'a174', 'a175', 'a176', 'a180', 'a183', 'a185', 'a186', 'a187', 'a188', 'a191', 'a194', 'a195', 'a198', 'a201', 'a204', 'a207', 'a208',
      'a209', 'a211', 'a214', 'a215',
    ],
    lookAlikesRedacted: [
      'b014', 'b015', 'b016', 'b017', 'b019', 'b021', 'b022', 'b039', 'b057', 'b070',
    ],
  },
  'heldout-10': {
    stored: [
      'j007', 'j017', 'j047', 'j048', 'j054', 'j055', 'j056', 'j058', 'j059', 'j060', 'j063', 'j084', 'j101', 'j111', 'j134', 'j144', 'j146', 'j155', 'j164', 'j183',
      'j186',
    ],
    lookAlikesRedacted: [
      'o004', 'o009', 'o021', 'o023', 'o025', 'o028', 'o032', 'o035', 'o045', 'o068', 'o083',
    ],
  },
  'heldout-11': {
    stored: [
      'p006', 'p008', 'p018', 'p027', 'p033', 'p054', 'p070', 'p084', 'p085', 'p086', 'p088', 'p106', 'p115', 'p117', 'p126', 'p127', 'p131', 'p132', 'p134', 'p135',
      'p144', 'p145', 'p152', 'p154',
    ],
    lookAlikesRedacted: [
      'x027', 'x039', 'x054',
    ],
  },
  'heldout-12': {
    stored: [
      'aa001', 'aa005', 'aa006', 'aa007', 'aa014', 'aa018', 'aa019', 'aa024', 'aa025', 'aa029', 'aa037', 'aa041', 'aa047', 'aa062', 'aa064', 'aa068',
      'aa071', 'aa079', 'aa108', 'aa121', 'aa130', 'aa132', 'aa135', 'aa136', 'aa137', 'aa138', 'aa143', 'aa151', 'aa154', 'aa164', 'aa165',
    ],
    lookAlikesRedacted: ['ab028', 'ab062'],
  },
  'heldout-13': {
    stored: ['ac016', 'ac025', 'ac034', 'ac039', 'ac056', 'ac101', 'ac133', 'ac148', 'ac152', 'ac173', 'ac182'],
    lookAlikesRedacted: ['ad056'],
  },
  'heldout-14': { stored: ['ae015', 'ae125', 'ae162', 'ae195'], lookAlikesRedacted: [] },
  'heldout-15': { stored: ['ag010', 'ag041', 'ag060', 'ag099', 'ag141', 'ag146', 'ag185', 'ag196'], lookAlikesRedacted: ['ah071'] },
  'heldout-16': { stored: ['ai008', 'ai109', 'ai172', 'ai183'], lookAlikesRedacted: ['aj002'] },
  'heldout-17': { stored: ['ak022', 'ak147', 'ak198'], lookAlikesRedacted: ['al049', 'al076'] },
  'heldout-18': { stored: ['am155', 'am159'], lookAlikesRedacted: ['an074'] },
  'heldout-19': { stored: ['ao092', 'ao150', 'ao157'], lookAlikesRedacted: [] },
  'heldout-20': { stored: ['aq018', 'aq022', 'aq146'], lookAlikesRedacted: ['ar064'] },
  'heldout-21': { stored: ['as065', 'as193'], lookAlikesRedacted: ['at067'] },
  'heldout-22': { stored: ['au047', 'au094', 'au122', 'au126', 'au199', 'au201'], lookAlikesRedacted: [] },
  'heldout-23': { stored: ['aw031', 'aw073', 'aw162', 'aw171', 'aw172', 'aw216', 'aw219'], lookAlikesRedacted: ['ax033', 'ax062'] },
  'heldout-24': { stored: ['ay006', 'ay090', 'ay117', 'ay121', 'ay139', 'ay149'], lookAlikesRedacted: ['az018'] },
  'heldout-25': {
    stored: ['ba057', 'ba086', 'ba097', 'ba114', 'ba119', 'ba124', 'ba146', 'ba148', 'ba196'],
    lookAlikesRedacted: ['bb001', 'bb019', 'bb027', 'bb029', 'bb069'],
  },
  'heldout-26': {
    stored: ['bc101', 'bc156', 'bc160', 'bc166', 'bc167', 'bc170', 'bc184', 'bc198', 'bc199', 'bc209'],
    lookAlikesRedacted: ['bd013', 'bd067'],
  },
  'heldout-27': {
    stored: ['be017', 'be057', 'be060', 'be115', 'be171', 'be174', 'be181', 'be184', 'be188', 'be193', 'be194'],
    lookAlikesRedacted: ['bf043'],
  },
  'heldout-28': {
    stored: ['bg066', 'bg075', 'bg165', 'bg171', 'bg174', 'bg189', 'bg200', 'bg208'],
    lookAlikesRedacted: ['bh001', 'bh020', 'bh025', 'bh038'],
  },
  'heldout-29': { stored: ['bi006', 'bi056', 'bi085', 'bi088', 'bi185', 'bi197', 'bi200'], lookAlikesRedacted: ['bj028'] },
  'heldout-30': {
    stored: ['bk005', 'bk027', 'bk073', 'bk074', 'bk077', 'bk153', 'bk154', 'bk155', 'bk156', 'bk157', 'bk164', 'bk167', 'bk174', 'bk178', 'bk195', 'bk196'],
    lookAlikesRedacted: ['bl050', 'bl068'],
  },
  'heldout-31': { stored: ['bm014', 'bm129', 'bm142'], lookAlikesRedacted: ['bn026', 'bn054', 'bn073'] },
  'heldout-32': { stored: ['bo092', 'bo104', 'bo119', 'bo126'], lookAlikesRedacted: [] },
  'heldout-33': { stored: ['bq122', 'bq126', 'bq174', 'bq202'], lookAlikesRedacted: ['br070'] },
  'heldout-34': { stored: ['bs064', 'bs065', 'bs066', 'bs071', 'bs171', 'bs202', 'bs211', 'bs226'], lookAlikesRedacted: ['bt057'] },
  'heldout-35': { stored: ['bu102', 'bu144', 'bu186', 'bu213'], lookAlikesRedacted: ['bv046'] },
  'heldout-36': { stored: ['bw031', 'bw161', 'bw190'], lookAlikesRedacted: ['bx045', 'bx046'] },
  'heldout-37': {
    stored: ['by072', 'by080', 'by083', 'by102', 'by138', 'by142', 'by147', 'by151', 'by154', 'by161', 'by177', 'by180', 'by182', 'by187', 'by192', 'by194', 'by195'],
    lookAlikesRedacted: ['bz004', 'bz022', 'bz075'],
  },
  'heldout-38': {
    stored: ['ca001', 'ca020', 'ca035', 'ca037', 'ca049', 'ca051', 'ca067', 'ca087', 'ca093', 'ca097', 'ca104', 'ca119', 'ca142', 'ca206'],
    lookAlikesRedacted: ['cb040', 'cb047', 'cb061'],
  },
  'heldout-39': {
    stored: ['cc010', 'cc065', 'cc115', 'cc116', 'cc118', 'cc134', 'cc156', 'cc159', 'cc163', 'cc173', 'cc181', 'cc200', 'cc202', 'cc205', 'cc212', 'cc214', 'cc215'],
    lookAlikesRedacted: ['cd040', 'cd048'],
  },
  'heldout-40': { stored: ['ce091', 'ce130', 'ce186', 'ce209', 'ce213'], lookAlikesRedacted: [] },
  'heldout-41': {
    stored: ['cg008', 'cg071', 'cg083', 'cg097', 'cg110', 'cg129', 'cg134', 'cg135', 'cg146', 'cg192', 'cg200', 'cg220'],
    lookAlikesRedacted: ['ch022', 'ch023', 'ch057'],
  },
  'heldout-42': { stored: ['ci024', 'ci168', 'ci177', 'ci211'], lookAlikesRedacted: ['cj072'] },
  'heldout-43': { stored: ['ck042', 'ck151'], lookAlikesRedacted: ['cl003', 'cl023', 'cl073'] },
  'heldout-44': { stored: ['cm088', 'cm143'], lookAlikesRedacted: ['cn055', 'cn059', 'cn067'] },
  'heldout-45': { stored: ['co187', 'co203'], lookAlikesRedacted: [] },
  'heldout-46': { stored: ['cq006', 'cq084', 'cq167', 'cq215'], lookAlikesRedacted: ['cr031', 'cr065'] },
  'heldout-47': { stored: ['cs066', 'cs081', 'cs167', 'cs204'], lookAlikesRedacted: ['ct001', 'ct007', 'ct009', 'ct010', 'ct013', 'ct014', 'ct069'] },
  'heldout-48': { stored: ['cu052', 'cu174', 'cu202', 'cu205', 'cu209'], lookAlikesRedacted: ['cv009'] },
  'heldout-49': { stored: ['cw158', 'cw213'], lookAlikesRedacted: ['cx070'] },
  'heldout-50': {
    stored: ['cy100', 'cy111', 'cy112', 'cy114', 'cy115', 'cy117', 'cy118', 'cy130', 'cy135', 'cy138', 'cy144', 'cy161', 'cy171', 'cy177', 'cy210'],
    lookAlikesRedacted: ['cz014'],
  },
  'heldout-51': { stored: ['da005', 'da031', 'da065', 'da081', 'da199'], lookAlikesRedacted: [] },
  'heldout-52': {
    stored: ['dc027', 'dc052', 'dc055', 'dc084', 'dc085', 'dc091', 'dc093', 'dc094', 'dc096', 'dc112', 'dc114', 'dc127', 'dc129', 'dc134', 'dc156', 'dc166', 'dc168', 'dc171', 'dc172', 'dc173', 'dc195'],
    lookAlikesRedacted: [],
  },
  'heldout-53': { stored: ['de013', 'de047'], lookAlikesRedacted: [] },
  'heldout-54': { stored: ['dg076', 'dg077', 'dg100', 'dg205'], lookAlikesRedacted: ['dh061'] },
  'heldout-55': { stored: [], lookAlikesRedacted: [] },
  'heldout-56': {
    stored: ['dk017', 'dk028', 'dk032', 'dk037', 'dk079', 'dk080', 'dk083', 'dk116', 'dk138', 'dk152', 'dk160', 'dk187', 'dk203', 'dk208', 'dk210'],
    lookAlikesRedacted: [],
  },
  'heldout-57': { stored: [], lookAlikesRedacted: [] },
  'heldout-58': {
    stored: ['do035', 'do049', 'do070', 'do076', 'do130', 'do133', 'do146', 'do147', 'do180', 'do198', 'do208'],
    lookAlikesRedacted: ['dp018'],
  },
  'heldout-59': { stored: ['dq215'], lookAlikesRedacted: ['dr033'] },
  'heldout-60': { stored: ['ds163', 'ds165', 'ds210'], lookAlikesRedacted: ['dt030', 'dt031'] },
} as const;

/**
 * Cases of the held-out rounds the rules still get wrong after tuning on them (README): known, named,
 * and checked to be still wrong, so a fix shows up as a failing test that asks to drop its id.
 */
export const OPEN_CASES: ReadonlySet<string> = new Set<string>([
  'y006', 'y080', 'y099',
  's023', 's146', 's158', 's161', 's162',
  'c009', 'c024', 'c036', 'c061', 'c062', 'c084', 'c207', 'c211',
  'u023', 'u032',
  'e001', 'e007', 'e034', 'e039', 'e061', 'e062', 'i025', 'e069', 'e072', 'e173',
  'e175', 'e178',
  'a029', 'a037', 'a049', 'a050', 'a051', 'a052', 'a081', 'a094', 'a174', 'a209', 'b019',
  'o028', 'o035',
  'p027', 'p054', 'p085', 'p088', 'p106', 'p126', 'p127', 'p145',
  'aa014', 'aa018', 'aa024', 'aa025', 'aa143', 'aa164',
  'al049',
  'ar064',
  'at067',
  'be193',
  'bk027', 'bk153', 'bk154', 'bk155', 'bk156',
  'cn059',
  'ct001', 'ct007', 'ct014',
  'da081',
  'do130',
]);

const ALPHABETS: Readonly<Record<string, string>> = {
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  hex: '0123456789abcdef',
  base32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-',
  digits: '0123456789',
};

/** The generator of a case: seeded by its id, so its values are the same in every run. */
function randomOfCase(id: string): () => number {
  let seed = 0x5eed;
  for (const c of id) seed = Math.imul(seed ^ c.charCodeAt(0), 0x9e3779b1);
  return seededRandom(seed);
}

/** `{{pem:N}}`: N lines of 64 base64 characters; `{{pemesc:N}}` joins them with a JSON-escaped `\n`. */
function expand(template: string, random: () => number): string {
  const draw = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  return template.replace(/\{\{(\w+):(\d+)\}\}/g, (whole, name: string, count: string) => {
    const n = Number(count);
    if (name === 'pem' || name === 'pemesc') return Array.from({ length: n }, () => draw(ALPHABETS.base64!, 64)).join(name === 'pem' ? '\n' : '\\n');
    const alphabet = ALPHABETS[name];
    if (!alphabet) throw new Error(`unknown generator in ${whole}`);
    return draw(alphabet, n);
  });
}

/**
 * A secret no rule can know for one (a random value in plain words), for scans of stored bytes:
 * finding it proves a scan reads what was stored, now that every labeled secret is redacted.
 */
export function scanControl(): SecretCase {
  const secret = expand('{{alnum:24}}', randomOfCase('scan-control'));
  return { id: 'scan-control', kind: 'control', text: `deploy note: build ${secret} went out on Tuesday`, secret };
}

export function loadSecretSet(set: SecretSet): SecretCase[] {
  const file = path.join(REPO_ROOT, 'test', 'fixtures', 'secrets', `${set}.jsonl`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const raw = JSON.parse(line) as { id: string; kind: string; text: string; secret?: string };
      const random = randomOfCase(raw.id);
      const secret = raw.secret === undefined ? null : expand(raw.secret, random);
      if (secret !== null && !raw.text.includes('{{secret}}')) throw new Error(`${raw.id}: a secret case needs {{secret}} in its text`);
      const text = expand(raw.text, random).replaceAll('{{secret}}', () => secret ?? '');
      return { id: raw.id, kind: raw.kind, text, secret };
    });
}

/**
 * What of a secret must not be found in stored bytes: the value, its lowercase form (the
 * full-text index lowercases), its JSON-escaped form, and each run of 12 or more letters and
 * digits (a split or truncated secret still leaks through those).
 */
export function secretFragments(secret: string): string[] {
  const runs = secret.split(/[^A-Za-z0-9]+/).filter((run) => run.length >= 12);
  return [...new Set([secret, secret.toLowerCase(), JSON.stringify(secret).slice(1, -1), ...runs, ...runs.map((r) => r.toLowerCase())])];
}
