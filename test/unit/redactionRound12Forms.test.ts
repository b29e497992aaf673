import { describe, it } from 'node:test';
import { ALNUM, assertKeeps, assertRedacts, BASE64 as BASE64_CHARS, HEX, secretDrawer, URL_SAFE } from '../support/drawnSecrets';

/*
 * Forms held-out rounds 12 to 21 found no rule for, and the look-alikes each new rule must
 * leave: the edges of every rule, one case a line. Drawn values come from a seeded generator,
 * so no token-shaped literal sits in the source.
 */

const { drawn } = secretDrawer(0x1213);
const R = (rule: string) => `[REDACTED:${rule}]`;

describe('rounds 12–13: a command written as a list of its arguments', () => {
  it('reads the list as the command line it is: curl -u, mysqldump -p…, docker login -p', () => {
    const pw = `${drawn(ALNUM, 9)}_5`;
    assertRedacts([
      [`subprocess.run(["curl", "-s", "-u", "ops:${pw}", url])`, `subprocess.run(["curl", "-s", "-u", "ops:${R('command-line-password')}", url])`],
      [`command: ["mysqldump", "-u", "root", "-p${pw}", "inventory"]`, `command: ["mysqldump", "-u", "root", "-p${R('command-line-password')}", "inventory"]`],
      [`exec.Command("docker", "login", "-u", "bob", "-p", "${pw}", "reg.io")`, `exec.Command("docker", "login", "-u", "bob", "-p", "${R('command-line-password')}", "reg.io")`],
    ]);
  });

  it('keeps lists with no secret, and a list that starts with no word', () => {
    assertKeeps(['args: ["--verbose", "--log-level", "debug"]', 'CMD ["npm", "run", "start", "--", "-p", "3000"]', 'x = ["-u", "admin"]']);
  });
});

describe('rounds 12–13: command lines', () => {
  it('redacts a quoted value attached to -p, $-quoted curl -u, vault login, mosquitto -P, snyk, an echoing password command', () => {
    const pw = `${drawn(ALNUM, 8)}?`;
    const token = `s.${drawn(ALNUM, 24)}`;
    const uuid = `${drawn(HEX, 8)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 12)}`;
    assertRedacts([
      [`docker login -u marta -p'${pw}' harbor.local`, `docker login -u marta -p'${R('command-line-password')}' harbor.local`],
      [`curl -fsS -u $'deploy:${pw}' https://nexus`, `curl -fsS -u $'deploy:${R('command-line-password')}' https://nexus`],
      [`vault login ${token}`, `vault login ${R('vault-token')}`],
      [`vault login ${uuid}`, `vault login ${R('command-line-password')}`],
      [`mosquitto_pub -h b -u s -P '${pw}' -t x`, `mosquitto_pub -h b -u s -P '${R('command-line-password')}' -t x`],
      [`snyk config set api=${uuid}`, `snyk config set api=${R('command-line-password')}`],
      [`restic snapshots --password-command "echo ${drawn(ALNUM, 20)}"`, `restic snapshots --password-command "echo ${R('command-line-password')}"`],
    ]);
  });

  it('keeps vault login by a method, a prompting login, a password command that reads a file', () => {
    assertKeeps(['vault login -method=oidc', 'vault login -method=userpass username=bob', 'vault login', 'restic snapshots --password-command "cat /run/secrets/restic"']);
  });

  it('reads a here-string into names: the word a secret name takes, the last name taking the rest', () => {
    const pw = `${drawn(ALNUM, 10)}%VH`;
    assertRedacts([
      [`read -r DB_USER DB_PASS <<< "svc_reports ${pw}"`, `read -r DB_USER DB_PASS <<< "svc_reports ${R('command-line-password')}"`],
      [`read USER TOKEN <<< 'ci ${pw}'`, `read USER TOKEN <<< 'ci ${R('command-line-password')}'`],
    ]);
    assertKeeps([`read -r DB_USER DB_PASS <<< "$(vault kv get -format=json secret/r | jq -r '.d')"`, 'read -r DB_USER DB_PASS <<< "$CREDS"', `read -ra PARTS <<< "a ${pw}"`]);
  });
});

describe('rounds 12–13: values under a name', () => {
  it('redacts a short unquoted password chosen of three kinds of character, under a password’s own name', () => {
    assertRedacts([
      ['docker run -e POSTGRES_PASSWORD=ySZcB62 -p 5432:5432 postgres:16', `docker run -e POSTGRES_PASSWORD=${R('generic-assignment')} -p 5432:5432 postgres:16`],
      ['PGPASSWORD=KrNMi43 psql -h replica', `PGPASSWORD=${R('generic-assignment')} psql -h replica`],
    ]);
    assertKeeps(['DB_PASSWORD=secret1', 'token = 1*tchar', 'PrivateKey: !GetAtt PrivateKey1', 'password=${PW}', 'token: Bearer', 'PASSWORD=Abc-def']);
  });

  it('redacts the items of a YAML list under a secret’s name, not its placeholders or names', () => {
    const key = drawn(ALNUM, 32);
    assertRedacts([[`api_keys:\n  - ${key}\n  - \${LEGACY_KEY}`, `api_keys:\n  - ${R('generic-assignment')}\n  - \${LEGACY_KEY}`]]);
    assertKeeps(['secrets:\n  - db-password\n  - api-token', 'passwords:\n  - changeme\n  - "${PW}"', `keys:\n  - id\n  - name`]);
  });

  it('redacts the password rows of a vault table and a yq print, and keeps the rest of the table', () => {
    const pw = drawn(ALNUM, 24);
    const table = (v: string) => `$ vault read database/creds/readonly\nKey                Value\n---                -----\nlease_duration     1h\npassword           ${v}\nusername           v-token-ro`;
    assertRedacts([
      [table(pw), table(R('printed-secret'))],
      [`$ yq '.auth.password' values.yaml\nStaging2424!Oc`, `$ yq '.auth.password' values.yaml\n${R('printed-secret')}`],
    ]);
    assertKeeps([table('********'), "$ yq '.auth.username' values.yaml\nadmin"]);
  });

  it('keeps a Secrets Manager ARN, whose last part is a secret’s name and a suffix', () => {
    assertKeeps(['"ARN": "arn:aws:secretsmanager:eu-west-1:576865135642:secret:prod/orders/db-tBtjjO",']);
  });
});

describe('rounds 12–13: positions, headers, cookies, encodings', () => {
  it('redacts passwords by position: FTP_TLS, LuaSQL, httr authenticate, NetworkCredential without new', () => {
    assertRedacts([
      ["ftp = FTP_TLS('ftp.bank.example', 'recon', 'me75EUnvbA')", `ftp = FTP_TLS('ftp.bank.example', 'recon', '${R('positional-password')}')`],
      ['env:connect("inventory", "inv_app", "RSkXJ427", "db", 3306)', `env:connect("inventory", "inv_app", "${R('positional-password')}", "db", 3306)`],
      ['authenticate("svc-shiny", "Shiny780vaP")', `authenticate("svc-shiny", "${R('positional-password')}")`],
      ['let creds = NetworkCredential("svc-ftp", "FtphdO0348#")', `let creds = NetworkCredential("svc-ftp", "${R('positional-password')}")`],
    ]);
    assertKeeps(['ftp = FTP_TLS(host, user, passwd)', 'db.connect("inventory", "inv_app", "RSkXJ427")', 'authenticate(request, "password")']);
  });

  it('redacts Basic credentials a directive sets, encoded pairs, a cookie jar’s session', () => {
    const basic = drawn(ALNUM, 32);
    const session = drawn(URL_SAFE, 40);
    assertRedacts([
      [`proxy_set_header Authorization "Basic ${basic}";`, `proxy_set_header Authorization "Basic ${R('authorization-header')}";`],
      ['const auth = `Basic ${btoa(`svc-metrics:XhrvZN1283`)}`;', `const auth = \`Basic \${btoa(\`svc-metrics:${R('credential-pair')}\`)}\`;`],
      ['let r = applyBasicAuth "deploy" "QkWdfK0491!" req', `let r = applyBasicAuth "deploy" "${R('credential-pair')}" req`],
      [`#HttpOnly_.app.example\tTRUE\t/\tTRUE\t1767225600\tsession\t${session}`, `#HttpOnly_.app.example\tTRUE\t/\tTRUE\t1767225600\tsession\t${R('session-cookie')}`],
    ]);
    assertKeeps(['Authorization basic credentials are sent once', 'btoa(`${user}:${password}`)', `.app.example\tTRUE\t/\tTRUE\t1767225600\ttheme\t${session}`]);
  });

  it('redacts a Dropbox short-lived token, a Yandex static key’s secret, and a Discord webhook’s id with its token', () => {
    const dropbox = `sl.${drawn(URL_SAFE, 138)}`;
    const yandex = `YC${drawn(ALNUM, 38)}`;
    const hook = `1180372947736145920/${drawn(URL_SAFE, 68)}`;
    assertRedacts([
      [`dbx = dropbox.Dropbox("${dropbox}")`, `dbx = dropbox.Dropbox("${R('dropbox-api-token')}")`],
      [`YANDEX_KEY=${yandex}`, `YANDEX_KEY=${R('yandex-access-key')}`],
      [`post("https://discord.com/api/webhooks/${hook}")`, `post("https://discord.com/api/webhooks/${R('discord-webhook-url')}")`],
    ]);
  });
});

describe('rounds 12–13: prose', () => {
  it('redacts a note that says which one it is, and passwords told in Dutch, Ukrainian, Swedish, Czech, Greek and Hebrew', () => {
    assertRedacts([
      ['// TODO: temp key is Skab3foxX9VV+BJIytpEGHZQfQwVdffpuSQnsirEN/E=', `// TODO: temp key is ${R('prose-secret')}`],
      ['# old pw ZOudX06#fSp (rotated)', `# old pw ${R('prose-secret')} (rotated)`],
      ['Het wachtwoord voor de testomgeving is nu Lente0854!, kun je', `Het wachtwoord voor de testomgeving is nu ${R('prose-secret')}, kun je`],
      ['Пароль до адмінки тимчасово CSxg273WU, завтра змінимо.', `Пароль до адмінки тимчасово ${R('prose-secret')}, завтра змінимо.`],
      ['Nytt lösen till jenkins-admin: Sommar7722# (byt', `Nytt lösen till jenkins-admin: ${R('prose-secret')} (byt`],
      ['Heslo k VPN je bywLp-1536, platí', `Heslo k VPN je ${R('prose-secret')}, platí`],
      ['Ο κωδικός για τον λογαριασμό είναι 3j913MN0raHbro', `Ο κωδικός για τον λογαριασμό είναι ${R('prose-secret')}`],
      ['הסיסמה החדשה לשרת היא PECqs887$ תעדכן', `הסיסמה החדשה לשרת היא ${R('prose-secret')} תעדכן`],
    ]);
    assertKeeps(['the new password is required', 'old key was rotated yesterday', 'Ο κωδικός είναι στο GitHub', 'Het wachtwoord is nu veilig', '// temp key is ${API_KEY}']);
  });
});

describe('round 14: a Dockerfile, a feature-flag SDK, a kubeconfig', () => {
  it('redacts a legacy ENV line under a secret’s name, and keeps its files, references, names and counts', () => {
    assertRedacts([['ENV ADMIN_PWD Admin2963#', `ENV ADMIN_PWD ${R('config-password')}`]]);
    assertKeeps(['ENV DB_PASSWORD_FILE /run/secrets/db', 'ENV API_KEY ${API_KEY}', 'ENV NODE_ENV production', 'ENV SECRET_NAME db-creds', 'ENV PASSWORD_MIN_LENGTH 12']);
  });

  it('redacts a LaunchDarkly SDK key or API token, and keeps its mobile key', () => {
    const uuid = `${drawn(HEX, 8)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 12)}`;
    assertRedacts([
      [`LDClient client = new LDClient("sdk-${uuid}");`, `LDClient client = new LDClient("${R('launchdarkly-key')}");`],
      [`LD_API_TOKEN: api-${uuid}`, `LD_API_TOKEN: ${R('launchdarkly-key')}`],
    ]);
    assertKeeps([`LDClient.init(application, config, "mob-${uuid}")`]);
  });

  it('redacts a kubeconfig user’s client-key-data and keeps its certificate', () => {
    const cert = `LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t${drawn(ALNUM, 60)}`;
    const key = `LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQ${drawn(ALNUM, 80)}`;
    assertRedacts([[`    client-certificate-data: ${cert}\n    client-key-data: ${key}`, `    client-certificate-data: ${cert}\n    client-key-data: ${R('private-key')}`]]);
  });
});

describe('round 15: DSNs, flags, XML, vendors, prose', () => {
  it('redacts a Go DSN password holding @, curl -su, unattend.xml’s nested Value, Splunk’s scheme, Octopus, Postmark and Meraki by position', () => {
    const uuid = `${drawn(HEX, 8)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 12)}`;
    const octopus = `API-${drawn('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 26)}`;
    const meraki = drawn(HEX, 40);
    assertRedacts([
      ['"dsn":"crm:Welcome12@JbK@tcp(192.168.1.40:3306)/crm"', `"dsn":"crm:${R('dsn-password')}@tcp(192.168.1.40:3306)/crm"`],
      ["curl -su 'svc-backup:jgnRyL-4878' https://nexus", `curl -su 'svc-backup:${R('command-line-password')}' https://nexus`],
      ['<AdministratorPassword>\n  <Value>AFRZT325$</Value>\n  <PlainText>true</PlainText>', `<AdministratorPassword>\n  <Value>${R('xml-secret')}</Value>\n  <PlainText>true</PlainText>`],
      [`-H "Authorization: Splunk ${uuid}"`, `-H "Authorization: Splunk ${R('authorization-header')}"`],
      [`octo push --apiKey ${octopus}`, `octo push --apiKey ${R('octopus-api-key')}`],
      [`client := postmark.NewClient("${uuid}", "")`, `client := postmark.NewClient("${R('positional-password')}", "")`],
      [`d = meraki.DashboardAPI("${meraki}")`, `d = meraki.DashboardAPI("${R('positional-password')}")`],
      ['ssh in as ubuntu, the password is UyAPro09! and then restart nginx', `ssh in as ubuntu, the password is ${R('prose-secret')}! and then restart nginx`],
    ]);
  });

  it('keeps a Mapbox public token, a header’s name, a password told as a word', () => {
    assertKeeps([
      `mapboxgl.accessToken = 'pk.eyJ1Ijoi${drawn(ALNUM, 40)}.${drawn(URL_SAFE, 22)}';`,
      'apiKeyHeader = "X-Octopus-ApiKey"',
      'the password is required and then the token is refreshed',
      '<AdministratorPassword>\n  <Value>${ADMIN_PASSWORD}</Value>',
    ]);
  });
});

describe('round 16: a default address, Codecov, HTTPie bearer, Defined Networking, a shell’s required variable', () => {
  it('redacts them', () => {
    const uuid = `${drawn(HEX, 8)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 12)}`;
    const token = `-${drawn(URL_SAFE, 47)}`;
    const dnkey = `dnkey-${drawn('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 26)}-${drawn('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 52)}`;
    assertRedacts([
      ['flag.String("dsn", "ro_user:MDuLO.984@/metrics", "mysql dsn")', `flag.String("dsn", "ro_user:${R('dsn-password')}@/metrics", "mysql dsn")`],
      [`run: bash <(curl -s https://codecov.io/bash) -t ${uuid}`, `run: bash <(curl -s https://codecov.io/bash) -t ${R('command-line-password')}`],
      [`http --auth-type=bearer --auth ${token} GET https://api.acme.dev/v1/me`, `http --auth-type=bearer --auth ${R('command-line-password')} GET https://api.acme.dev/v1/me`],
      [`dnkey: ${dnkey}`, `dnkey: ${R('defined-networking-api-token')}`],
    ]);
  });

  it('keeps imports from @/, the message of ${NAME:?…}, HTTPie’s user:password prompt', () => {
    assertKeeps(['import db from "@/lib/db"', 'DB_PASSWORD=${DB_PASSWORD:?DB_PASSWORD must be set}', 'http --auth-type=bearer GET https://api.acme.dev/v1/me']);
  });
});

describe('round 17: an attached login password, a ? in a URL’s password, a README’s code span', () => {
  it('redacts them, and keeps a login reading its input, a port and a query, a name in a code span', () => {
    assertRedacts([
      ['docker login -u admin -pSeal3795pup localhost:5000', `docker login -u admin -p${R('command-line-password')} localhost:5000`],
      ["lftp ftp://backup:Ferret83?@files.example.com -e 'quit'", `lftp ftp://backup:${R('url-password')}@files.example.com -e 'quit'`],
      ['Connect with `psql -U analytics` and password `An4lytics!` (ask ops)', `Connect with \`psql -U analytics\` and password \`${R('prose-secret')}\` (ask ops)`],
    ]);
    assertKeeps(['docker login -u admin --password-stdin localhost:5000', 'docker login -p $PASS', 'https://host:443?email=a@b.com', 'set the password `DB_PASSWORD` first']);
  });
});

describe('round 18: Sidekiq’s gem credentials, a Yandex IAM token, a file a value is read from', () => {
  it('redacts the first two and keeps the third', () => {
    const pair = `${drawn(HEX, 8)}:${drawn(HEX, 8)}`;
    const iam = `t1.${drawn(URL_SAFE, 60)}.${drawn(URL_SAFE, 86)}`;
    assertRedacts([
      [`bundle config --local enterprise.contribsys.com ${pair}`, `bundle config --local enterprise.contribsys.com ${R('sidekiq-secret')}`],
      [`BUNDLE_GEMS__CONTRIBSYS__COM=${pair}`, `BUNDLE_GEMS__CONTRIBSYS__COM=${R('sidekiq-secret')}`],
      [`$ yc iam create-token\n${iam}`, `$ yc iam create-token\n${R('yandex-iam-token')}`],
    ]);
    assertKeeps(['vault kv put secret/app/db password=@db_pass.txt', 'curl -d @payload.json https://api.example.com']);
  });
});

describe('round 19: a login in code spans, Asana and Flutterwave keys', () => {
  it('redacts them, and keeps a placeholder in a code span and fractions', () => {
    const digits = (n: number) => drawn(HEX, n).replace(/[a-f]/g, (c) => String(c.charCodeAt(0) % 10));
    const asana = `2/${digits(16)}/${digits(16)}:${drawn(HEX, 32)}`;
    const flutterwave = `FLWSECK_TEST-${drawn(HEX, 32)}-X`;
    assertRedacts([
      ['Grafana is at https://grafana.example (login `admin` / `Grizzly651`).', `Grafana is at https://grafana.example (login \`admin\` / \`${R('prose-secret')}\`).`],
      [`ASANA_PAT=${asana}`, `ASANA_PAT=${R('asana-pat')}`],
      [`new Flutterwave(publicKey, '${flutterwave}')`, `new Flutterwave(publicKey, '${R('flutterwave-secret-key')}')`],
    ]);
    assertKeeps(['login `admin` / `<password>`', 'mix 3/4 cups, see src/0/abc']);
  });
});

describe('round 20: a password grown from a placeholder word, an Actions fallback, a Firebase config', () => {
  it('redacts the first two, and keeps placeholders, an empty fallback and an auth domain', () => {
    assertRedacts([
      ["DB_PASS = 'changeit715x'  # TODO move to vault", `DB_PASS = '${R('generic-assignment')}'  # TODO move to vault`],
      ["DB_PASS: ${{ secrets.STAGING_DB_PASS || 'Fallback916' }}", `DB_PASS: \${{ secrets.STAGING_DB_PASS || '${R('generic-assignment')}' }}`],
    ]);
    assertKeeps(["DB_PASS = 'changeme'", 'password: changeme123!', "DB_PASS: ${{ secrets.DB_PASS || '' }}", 'authDomain: "acme-web.firebaseapp.com",']);
  });
});

describe('round 21: a login told with is, base64 that starts with +', () => {
  it('redacts them, and keeps literals joined by code', () => {
    const auth = `+${drawn(BASE64_CHARS, 39)}`;
    assertRedacts([
      ['Default admin login is `admin` / `Admin1588` (change it after first boot).', `Default admin login is \`admin\` / \`${R('prose-secret')}\` (change it after first boot).`],
      [`"auth": "${auth}"`, `"auth": "${R('generic-assignment')}"`],
    ]);
    assertKeeps(['"Password: " + getPassword() + ","', "password = '+getPassword()+'"]);
  });
});

describe('forms found only in texts joined together (the raw-bytes scan joins every case)', () => {
  it('finds a key whose value a form found lines further on skipped over: `grep -i pass` then MAIL_PASSWORD=…, then a name/value pair', () => {
    const text = "$ env | grep -i pass\nMAIL_PASSWORD=FtNv0310\n\nvariables:\n  - name: SQL_PWD\n    value: 'azeex@4246'";
    assertRedacts([[text, text.replace('FtNv0310', R('generic-assignment')).replace('azeex@4246', R('generic-assignment'))]]);
  });

  it('reads a vault table right after another table, whose lines reach up to its command', () => {
    // A passphrase of words, which only the table's reading takes (no other rule reads a value with spaces).
    const pw = `correct horse ${drawn(ALNUM, 6)} staple`;
    const first = '$ vault kv get secret/app\n====== Data ======\nKey         Value\n---         -----\nusername    app';
    const second = `$ vault read database/creds/ro\nKey         Value\n---         -----\npassword    ${pw}`;
    assertRedacts([[`${first}\n\n${second}`, `${first}\n\n${second.replace(pw, R('printed-secret'))}`]]);
  });

  it('keeps a ConfigMap pasted after a Secret without `---`, and reads a Secret whose kind comes after its data', () => {
    const value = drawn(ALNUM, 20);
    const secret = `apiVersion: v1\nkind: Secret\ndata:\n  password: ${value}`;
    const configMap = 'apiVersion: v1\nkind: ConfigMap\ndata:\n  LOG_LEVEL: info\n  DB_HOST: postgres.db.svc';
    assertRedacts([
      [`${secret}\n\n${configMap}`, `${secret.replace(value, R('kubernetes-secret'))}\n\n${configMap}`],
      [`apiVersion: v1\ndata:\n  token: ${value}\nkind: Secret`, `apiVersion: v1\ndata:\n  token: ${R('kubernetes-secret')}\nkind: Secret`],
    ]);
  });

  it('redacts a Dockerfile ENV line quoted in a sentence, one word that reads as a password', () => {
    assertRedacts([['it works: ENV ADMIN_PWD Admin2963#', `it works: ENV ADMIN_PWD ${R('config-password')}`]]);
    assertKeeps(['set the ENV PASSWORD variable first']);
  });
});

describe('round 22: registry creds as one option, a pre-shared key, a password grown from Changeit, what a password was set to, Airtable tokens', () => {
  it('redacts them', () => {
    const token = `pat${drawn(ALNUM, 14)}.${drawn('0123456789abcdef', 64)}`;
    assertRedacts([
      ['skopeo copy --src-creds bob:Hunter2024x --dest-creds svc:eXMZmTylXMyLOcC docker://a docker://b', `skopeo copy --src-creds bob:${R('command-line-password')} --dest-creds svc:${R('command-line-password')} docker://a docker://b`],
      ['network={\n    ssid="Office-5G"\n    psk="CoffeeBvlu6424"\n}', `network={\n    ssid="Office-5G"\n    psk="${R('generic-assignment')}"\n}`],
      ['Secret: Password = "Changeit844!";', `Secret: Password = "${R('generic-assignment')}";`],
      ['Ich habe das Passwort für den Admin-Account auf Sommer8710! gesetzt.', `Ich habe das Passwort für den Admin-Account auf ${R('prose-secret')} gesetzt.`],
      ['Mudei a senha do banco para Inverno2024!x ontem.', `Mudei a senha do banco para ${R('prose-secret')} ontem.`],
      ['Zmieniłem hasło do bazy na Zima2024!xx wczoraj.', `Zmieniłem hasło do bazy na ${R('prose-secret')} wczoraj.`],
      ['Oye, la contraseña del servidor es «RfabqSiDekNMhC», el usuario es ftp', `Oye, la contraseña del servidor es «${R('prose-secret')}», el usuario es ftp`],
      [`base = Api('${token}')`, `base = Api('${R('airtable-pat')}')`],
    ]);
  });

  it('keeps placeholders, names in typographic quotes, what a password is not set to, and WPA-PSK', () => {
    assertKeeps([
      'password = "changeme123"',
      'password: ChangeIt',
      'skopeo inspect --creds $USER:$PASS docker://x',
      'key_mgmt=WPA-PSK',
      'Wenn du dein Passwort vergessen hast, klicke auf „Passwort zurücksetzen“ und folge dem Link.',
      'Das Passwort liegt auf dem Server unter /etc/app/secret.',
      'La contraseña a usar está en el vault de producción.',
    ]);
  });
});

describe('round 23: a table row, an XML value attribute, a keystring, Lob and MessageBird keys, a password grown from changeit, a quoted password in prose', () => {
  it('redacts them', () => {
    const lob = `live_${drawn('0123456789abcdef', 35)}`;
    const bird = drawn(ALNUM, 25);
    assertRedacts([
      ['║ PGPASSWORD      │ Ooy77ehF1NEF0YCpavoI           ║', `║ PGPASSWORD      │ ${R('generic-assignment')}           ║`],
      ['| DB_PASSWORD | Winter2024!x |', `| DB_PASSWORD | ${R('generic-assignment')} |`],
      ['  <password value="Alerts4233#" />', `  <password value="${R('xml-secret')}" />`],
      ['ETSY_KEYSTRING=aqHwjPB5yq34HeR8h4yf4Q3U', `ETSY_KEYSTRING=${R('generic-assignment')}`],
      [`const lob = require('lob')('${lob}');`, `const lob = require('lob')('${R('lob-api-key')}');`],
      [`mb = require('messagebird').initClient('${bird}');`, `mb = require('messagebird').initClient('${R('positional-password')}');`],
      [`const mb = require('messagebird')('${bird}');`, `const mb = require('messagebird')('${R('positional-password')}');`],
      ['keytool -importkeystore -srcstorepass changeit597 -destkeystore app.jks', `keytool -importkeystore -srcstorepass ${R('command-line-password')} -destkeystore app.jks`],
      ['Hoi, het wachtwoord voor staging is "Fiets745!". Kun je draaien?', `Hoi, het wachtwoord voor staging is "${R('prose-secret')}". Kun je draaien?`],
    ]);
  });

  it("keeps a table's types and notes, references, placeholders, a digest column and a form's texts", () => {
    assertKeeps([
      "| password | string | The user's password |",
      '| token | TSESTree.Token |',
      'type T = | TSESTree.NullToken | TSESTree.PrivateIdentifierToken | TSESTree.PunctuatorToken | TSESTree.StringToken;',
      'const re = "(SECRET|secret|Secret)?_?(ACCESS|access|Access)?_?(KEY|key|Key)";',
      '| SMTP_PASSWORD | (set in 1Password) |',
      '  <password value="${SMTP_PASS}" />',
      'keyString = "user:42"',
      'keytool -list -storepass changeit -keystore cacerts',
      'password = "changeme123!"',
      'Das Passwort ist "falsch", sagt der Server.',
      '"login.password.forgot": "Mot de passe oublié ?"',
      '$ fly secrets list -a worker\nNAME            DIGEST                  CREATED AT\nSMTP_PASSWORD   03d043b64eafdc9b        2m ago',
    ]);
  });
});

describe('round 24: a DSN built by Sprintf, a Jenkins parameter default, a value past its escaped quotes, key-string, key names in other languages, a bare key drawn', () => {
  it('redacts them', () => {
    const key = `K00${drawn(ALNUM, 28)}`;
    assertRedacts([
      ['dsn := fmt.Sprintf("%s:%s@tcp(%s:%d)/%s", "billing", "7KAFVVhTFYq22KqS5L3N", host, 3306, "billing")', `dsn := fmt.Sprintf("%s:%s@tcp(%s:%d)/%s", "billing", "${R('dsn-password')}", host, 3306, "billing")`],
      ['<hudson.model.PasswordParameterDefinition>\n  <name>DEPLOY_PASS</name>\n  <description>prod deploy</description>\n  <defaultValue>Depl0y-NoMkLU</defaultValue>', `<hudson.model.PasswordParameterDefinition>\n  <name>DEPLOY_PASS</name>\n  <description>prod deploy</description>\n  <defaultValue>${R('xml-secret')}</defaultValue>`],
      ['{"secret": "password = \\"Raven5291\\"", "enabled": true}', `{"secret": "${R('generic-assignment')}", "enabled": true}`],
      ['ADMIN_PASSWORD="q7\\"Lm#p2-Vx"', `ADMIN_PASSWORD="${R('generic-assignment')}"`],
      ['key chain OSPF\n key 1\n  key-string Ospf7766Key', `key chain OSPF\n key 1\n  key-string ${R('config-password')}`],
      ['mot_de_passe = Mistral171', `mot_de_passe = ${R('generic-assignment')}`],
      ['contraseña: "Verano2024!x"', `contraseña: "${R('generic-assignment')}"`],
      [`[b2-backup]\ntype = b2\nkey = ${key}\nhard_delete = false`, `[b2-backup]\ntype = b2\nkey = ${R('generic-assignment')}\nhard_delete = false`],
    ]);
  });

  it("keeps a format's variables, another parameter's default, a password's word as a value, a JSON object's next key, lookups under a bare key", () => {
    assertKeeps([
      'dsn := fmt.Sprintf("%s:%s@tcp(%s:%d)/%s", user, pass, host, 3306, db)',
      '<hudson.model.StringParameterDefinition>\n  <name>BRANCH</name>\n  <defaultValue>main</defaultValue>',
      '{"fr": { "login.password": "Mot de passe" }, "de": { "login.password": "Passwort" }, "ja": { "login.password": "パスワード" }}',
      '{ "login.password": "Password", "login.forgot": "Forgot password?" }',
      'key: 9f86d081884c7d659a2feaa0c55ad015',
      'key = "user:42"',
      '"key": "AAAAC3NzaC1lZDI1NTE5AAAAIGsdZx1gEWBQT4Df5hgWXQ2q"',
      'key: release-notes-2024-q3-summary-final',
    ]);
  });
});

describe('round 25: a pair encoded from a variable, WiX properties, legacy Vault tokens, Some(…), :auth(…), C clients, a password in a code span a few words on, PEM pass phrases, AcsClient', () => {
  it('redacts them', () => {
    const token = `s.${drawn(ALNUM, 20)}A1b${drawn(ALNUM, 1)}`;
    assertRedacts([
      ['$pair = "svc_sync:Sync4615!RW"\n$b64 = [Convert]::ToBase64String([Text.Encoding]::ASCII.GetBytes($pair))', `$pair = "svc_sync:${R('credential-pair')}"\n$b64 = [Convert]::ToBase64String([Text.Encoding]::ASCII.GetBytes($pair))`],
      ['<Property Id="SQLSERVICEPASSWORD" Value="Svc9998!DtU" Hidden="yes" />', `<Property Id="SQLSERVICEPASSWORD" Value="${R('xml-secret')}" Hidden="yes" />`],
      [`$ vault token lookup\nKey                 Value\n---                 -----\nid                  ${token}\nttl                 767h`, `$ vault token lookup\nKey                 Value\n---                 -----\nid                  ${R('printed-secret')}\nttl                 767h`],
      ['.basic_auth("admin", Some("O4ImGyiM3NYaB7XTHi"))', `.basic_auth("admin", Some("${R('generic-assignment')}"))`],
      ['local res, err = red:auth("jG5jyGJzjvWf8X4Jl64M7otD")', `local res, err = red:auth("${R('generic-assignment')}")`],
      ['mysql_real_connect(conn, "localhost", "sensor", "Sens0r#542", "telemetry", 0, NULL, 0)', `mysql_real_connect(conn, "localhost", "sensor", "${R('positional-password')}", "telemetry", 0, NULL, 0)`],
      ['production uses the password you pasted (`4mHYDyXlL8j4g9yF88`).', `production uses the password you pasted (\`${R('prose-secret')}\`).`],
      ['der, err := x509.DecryptPEMBlock(block, []byte("Passphrase-XpbaIV"))', `der, err := x509.DecryptPEMBlock(block, []byte("${R('positional-password')}"))`],
      ['client = AcsClient(os.getenv("ID"), "Wb7v7b7cpJt8jpqSrprixzYiwC9Qbp", "cn-hangzhou")', `client = AcsClient(os.getenv("ID"), "${R('positional-password')}", "cn-hangzhou")`],
    ]);
  });

  it("keeps an instruction in angle brackets, a log's next pair, a form's texts, a struct's tag, an s. name with no Vault", () => {
    assertKeeps([
      'DB_PASSWORD=\nJWT_SECRET=<generate with: openssl rand -hex 32>',
      'WARN auth: login failed user=jdoe reason=invalid_password request_id=4954afcb-e595-5a07-5eaa-54d484d4e0a7 ip=10.2.3.4',
      '"password_too_short": "パスワードは12文字以上にしてください"',
      '"errors.password.expired": "Срок действия пароля истёк"',
      '{ "passwort_vergessen": "Passwort vergessen?", "contrasena_incorrecta": "Contraseña incorrecta" }',
      'type Config struct {\n\tPassword string `env:"DB_PASS"`\n}',
      'the password field (`passwordHash`) is hashed with bcrypt',
      'const s = {}; s.AbcdefGhijklMnop1234Qrst = 1;',
    ]);
  });
});

describe('round 26: key names in Dutch and of LDAP binds, a list item in Korean, OpenVPN static keys, Cisco users, Postfix sasl_passwd, wandb, passwords told with no verb', () => {
  it('redacts them', () => {
    const hex = drawn(HEX, 40);
    assertRedacts([
      ['[verbinding]\ngebruiker = beheer\nwachtwoord = Tulpen108-vFf', `[verbinding]\ngebruiker = beheer\nwachtwoord = ${R('generic-assignment')}`],
      ['dnpass = Ldap9913Bind', `dnpass = ${R('generic-assignment')}`],
      ['- 계정: deploy\n- 비밀번호: Kimchi078!!\n', `- 계정: deploy\n- 비밀번호: ${R('prose-secret')}\n`],
      ['-----BEGIN OpenVPN Static key V1-----\ne83dd4fcad594d60f77b5a691f090642\n9287886cd0758ee38475a7d47bbf0234\n-----END OpenVPN Static key V1-----', `-----BEGIN OpenVPN Static key V1-----\n${R('private-key')}-----END OpenVPN Static key V1-----`],
      ['username netadmin privilege 15 password 0 Cisco3004!\n!', `username netadmin privilege 15 password 0 ${R('config-password')}\n!`],
      ['[smtp.gmail.com]:587 alerts@acme.io:BcSv KQYT cEvB cUly', `[smtp.gmail.com]:587 alerts@acme.io:${R('config-password')}`],
      [`wandb.login(key="${hex}")`, `wandb.login(key="${R('wandb-api-key')}")`],
      ['Uso el usuario "conta" y la contraseña Paella6730 pero me da error 530.', `Uso el usuario "conta" y la contraseña ${R('prose-secret')} pero me da error 530.`],
      ['Benutzer ist admin, Passwort Brezel374!. Fehlermeldung: "Invalid"', `Benutzer ist admin, Passwort ${R('prose-secret')}. Fehlermeldung: "Invalid"`],
    ]);
  });

  it("keeps an error's constant, secrets' names in a table's Secret column, words after a password's word", () => {
    assertKeeps([
      'export const ERR_PASSWORD_TOO_SHORT = "E1042";\nexport const ERR_INVALID_API_KEY = "E1044";',
      '| Secret | Where | Rotation |\n|---|---|---|\n| `DB_PASS` | Vault `kv/app/db` | 90 days |\n| `STRIPE_SECRET_KEY` | Doppler `prd` | on incident |',
      'Passwort vergessen? Passwort zurücksetzen',
      'la contraseña actual no funciona',
      '[global]\nusername = admin\nenable = true',
    ]);
  });
});

describe('forms found only in texts joined together, rounds 25–26', () => {
  it("keeps what follows an HTML input named password, and a log line's level in brackets", () => {
    assertKeeps([
      '<input type="password" name="password" id="password" placeholder="Contraseña" required>\n\nconst TOKEN_RE = /ghp_[A-Za-z0-9]{36}/;\nexistingSecret: pg-auth\n<b>',
      '[DEBUG]\t\torg.slf4j.slf4j-api:jar:1.7.8.:compile (version managed from default)',
    ]);
    assertRedacts([['<entry key="jdbc.password">\n  Tr0ub4dor&3x\n</entry>', `<entry key="jdbc.password">\n  ${R('xml-secret')}\n</entry>`]]);
  });
});

describe("round 27: fish's set and a config line's Password, cypher-shell, DB2's using, Turkish keys, Arabic prose, Cisco IKE keys and SNMP communities, logging in as a user and password", () => {
  it('redacts them', () => {
    assertRedacts([
      ["set -gx NEXUS_USER jdoe\nset -gx NEXUS_PASSWORD 'Orchid970!!'", `set -gx NEXUS_USER jdoe\nset -gx NEXUS_PASSWORD '${R('generic-assignment')}'`],
      ['Username jdoe\nDomain CORP\nPassword Winter6374#\nProxy 10.0.0.1:8080', `Username jdoe\nDomain CORP\nPassword ${R('generic-assignment')}\nProxy 10.0.0.1:8080`],
      ["cypher-shell -a bolt://localhost:7687 -u neo4j -p graphs-are-SEgRO 'MATCH (n) RETURN n;'", `cypher-shell -a bolt://localhost:7687 -u neo4j -p ${R('command-line-password')} 'MATCH (n) RETURN n;'`],
      ['db2 connect to SAMPLE user db2inst1 using Db2inst135', `db2 connect to SAMPLE user db2inst1 using ${R('command-line-password')}`],
      ['kullanici: yonetici\nsifre: "Bogaz4110!"', `kullanici: yonetici\nsifre: "${R('generic-assignment')}"`],
      ['المستخدم deploy وكلمة المرور Sahara9809!', `المستخدم deploy وكلمة المرور ${R('prose-secret')}`],
      ['crypto isakmp key Branch6535Tunnel address 203.0.113.5', `crypto isakmp key ${R('config-password')} address 203.0.113.5`],
      ['snmp-server community monitor7231 RO 10', `snmp-server community ${R('config-password')} RO 10`],
      ['1. Log in to https://staging.acme.io as `qa-user` / `QaTester484`', `1. Log in to https://staging.acme.io as \`qa-user\` / \`${R('prose-secret')}\``],
    ]);
  });

  it("keeps a map of passwords' file, words after Password, a regex listed, a token's accessor, a variable set to a word", () => {
    assertKeeps([
      'smtp_sasl_password_maps = hash:/etc/postfix/sasl_passwd',
      'Password Policy',
      'Password reset link sent to your email',
      'set -gx EDITOR vim',
      'secrets.patterns (A3T[A-Z0-9]|AKIA|AGPA)[A-Z0-9]{16}',
      'token_accessor       TRHzn43Ga6SNuepLGmLDFYlg',
      'select * from users using index (idx)',
    ]);
  });
});

describe("round 28: etcdctl's --user, KeePass' export, Junos communities, netsh's Key Content, SSSD's authtok, Puppet's postgresql_password, logging in with a user and password, Korean with =", () => {
  it('redacts them', () => {
    assertRedacts([
      ['etcdctl --endpoints=https://10.0.1.10:2379 --user root:Etcd7136GBT get /registry', `etcdctl --endpoints=https://10.0.1.10:2379 --user root:${R('command-line-password')} get /registry`],
      ['<String><Key>Password</Key><Value ProtectInMemory="True">Router-qRoS-9212</Value></String>', `<String><Key>Password</Key><Value ProtectInMemory="True">${R('xml-secret')}</Value></String>`],
      ['admin@mx204# show snmp\ncommunity "Jun1per-lKseH" {\n    authorization read-only;\n}', `admin@mx204# show snmp\ncommunity "${R('config-password')}" {\n    authorization read-only;\n}`],
      ['    Key Content            : Coffee2434Beans', `    Key Content            : ${R('config-password')}`],
      ['ldap_default_authtok_type = password\nldap_default_authtok = Sssd7280bVX', `ldap_default_authtok_type = password\nldap_default_authtok = ${R('generic-assignment')}`],
      ["password_hash => postgresql::postgresql_password('reporting', 'Puppet0466'),", `password_hash => postgresql::postgresql_password('reporting', '${R('positional-password')}'),`],
      ['2. Log in to the admin UI with `admin` / `Adm1n-WgZq-13`', `2. Log in to the admin UI with \`admin\` / \`${R('prose-secret')}\``],
      ['스테이징 DB 비밀번호 = Seoul7268#db 인데 접속이 안 됩니다.', `스테이징 DB 비밀번호 = ${R('prose-secret')} 인데 접속이 안 됩니다.`],
    ]);
  });

  it("keeps a placeholder in words, a SealedSecret's ciphertext, an error's code, a public key printed by wg", () => {
    assertKeeps([
      'DB_PASS=\nJWT_SECRET=change-me-in-production',
      `kind: SealedSecret\nspec:\n  encryptedData:\n    password: Ag${drawn(BASE64_CHARS, 360)}`,
      "SECRET_NOT_FOUND: 'E_VAULT_0404',",
      'interface: wg0\n  public key: GYr6Ve2W/3Uy2a+Fl/D+TmD5I1ySt/bbYGq9i77VXbP=\n  private key: (hidden)',
    ]);
  });
});

describe("round 29: a DSN's user as a shell variable, evil-winrm, JMeter arguments, Wi-Fi profiles' keyMaterial, Puppet's pw_hash, French c'est, Russian with no verb", () => {
  it('redacts them', () => {
    assertRedacts([
      ['MYSQL_DSN="${MYSQL_USER}:7F9CRErFh75IMSmTMYBe@tcp(${MYSQL_HOST}:3306)/db"', `MYSQL_DSN="\${MYSQL_USER}:${R('dsn-password')}@tcp(\${MYSQL_HOST}:3306)/db"`],
      ["evil-winrm -i 10.0.0.4 -u Administrator -p 'Lab3305!range'", `evil-winrm -i 10.0.0.4 -u Administrator -p '${R('command-line-password')}'`],
      ['<stringProp name="Argument.name">password</stringProp>\n  <stringProp name="Argument.value">LoadTest487!</stringProp>', `<stringProp name="Argument.name">password</stringProp>\n  <stringProp name="Argument.value">${R('xml-secret')}</stringProp>`],
      ['<protected>false</protected>\n  <keyMaterial>Gabelstapler967</keyMaterial>', `<protected>false</protected>\n  <keyMaterial>${R('xml-secret')}</keyMaterial>`],
      ["password => pw_hash('Puppet8140strings', 'SHA-512', 'mysalt'),", `password => pw_hash('${R('positional-password')}', 'SHA-512', 'mysalt'),`],
      ["Le mot de passe c'est Chambery5533!, tu peux vérifier ?", `Le mot de passe c'est ${R('prose-secret')}, tu peux vérifier ?`],
      ['Не могу подключиться к Redis, пароль Moroz2281, ошибка WRONGPASS.', `Не могу подключиться к Redis, пароль ${R('prose-secret')}, ошибка WRONGPASS.`],
    ]);
  });

  it("keeps another JMeter argument and error messages under keys naming a wrong secret", () => {
    assertKeeps([
      '<stringProp name="Argument.name">page</stringProp>\n  <stringProp name="Argument.value">Results2024</stringProp>',
      '"invalid_client_secret": "The client secret is invalid or expired.",\n"wrong_password": "Incorrect password, 2 attempts left.",',
    ]);
  });
});

describe("round 30: a DSN built by +, Oracle's tools, hdbsql, JMeter's value before its name, admin / …, Italian in, Russian —, Indonesian, a prompt before snmp-server, literals in a notebook's JSON, bcrypt", () => {
  it('redacts them', () => {
    assertRedacts([
      ['return user + ":" + "Y6iikbXEdKE31Ld8vdxWCtOF" + "@tcp(" + host + ":3306)/" + db', `return user + ":" + "${R('dsn-password')}" + "@tcp(" + host + ":3306)/" + db`],
      ['expdp hr/Hr4576pass@PDB1 directory=DATA_PUMP_DIR dumpfile=hr.dmp', `expdp hr/${R('dsn-password')}@PDB1 directory=DATA_PUMP_DIR dumpfile=hr.dmp`],
      ['hdbsql -n hana01:30015 -u SYSTEM -p Manager55X "SELECT 1"', `hdbsql -n hana01:30015 -u SYSTEM -p ${R('command-line-password')} "SELECT 1"`],
      ['<elementProp name="password" elementType="HTTPArgument">\n  <stringProp name="Argument.value">LoadTest!5225</stringProp>\n  <stringProp name="Argument.name">password</stringProp>\n</elementProp>', `<elementProp name="password" elementType="HTTPArgument">\n  <stringProp name="Argument.value">${R('xml-secret')}</stringProp>\n  <stringProp name="Argument.name">password</stringProp>\n</elementProp>`],
      ['router admin / Fritz3919box (the sticker is outdated)', `router admin / ${R('prose-secret')} (the sticker is outdated)`],
      ['ho cambiato la password del database in Pizza555margherita, aggiorna il file', `ho cambiato la password del database in ${R('prose-secret')}, aggiorna il file`],
      ['пароль от VPN — Moroz7829!, логин ivanov.', `пароль от VPN — ${R('prose-secret')}, логин ivanov.`],
      ['Halo, kata sandinya Merdeka4218 untuk akun ftp', `Halo, kata sandinya ${R('prose-secret')} untuk akun ftp`],
      ['sw-core-01(config)# snmp-server community n0c-EqIhOj RO 10', `sw-core-01(config)# snmp-server community ${R('config-password')} RO 10`],
      ['"server.login(\\"reports@acme.io\\", \\"RlfXmlEQ3hQojlBs\\")\\n"', `"server.login(\\"reports@acme.io\\", \\"${R('positional-password')}\\")\\n"`],
      ['hashed = bcrypt.hashpw(b"Pytest5342!", bcrypt.gensalt())', `hashed = bcrypt.hashpw(b"${R('positional-password')}", bcrypt.gensalt())`],
    ]);
  });

  it("keeps another argument, admin's pages, a form's labels holding the word, an OAuth client's id", () => {
    assertKeeps([
      '<elementProp name="page" elementType="HTTPArgument">\n  <stringProp name="Argument.value">Results2024x</stringProp>\n</elementProp>',
      'admin / settings page',
      '{\n  "password": "Passwort",\n  "password_confirm": "Passwort bestätigen",\n  "secret_question": "Sicherheitsfrage"\n}',
      'GOOGLE_OAUTH_CLIENT_ID=447464966434-M5TAHFnLyroRWIxPM3JXYLSvCjp2orUv.apps.googleusercontent.com',
    ]);
  });
});

describe("round 31: a DSN with no protocol, a bare key inside the overlap, Polish key names; kept: SealedSecret and Jenkins ciphertext, a placeholder in capitals", () => {
  it('redacts them', () => {
    assertRedacts([
      ["DATA_SOURCE_NAME='exporter:Exp0rter-l2gb6ao22P@(localhost:3306)/'", `DATA_SOURCE_NAME='exporter:${R('dsn-password')}@(localhost:3306)/'`],
      ['api_secret: key="60d73796f3b29aab92711b5a8f8a41c49e42168a"', `api_secret: key="${R('generic-assignment')}"`],
      ['[polaczenie]\nuzytkownik=raporty\nhasło=Raporty349#', `[polaczenie]\nuzytkownik=raporty\nhasło=${R('generic-assignment')}`],
    ]);
  });

  it('keeps ciphertext a tool keeps, a placeholder in capitals, lookups and addresses', () => {
    assertKeeps([
      `kind: SealedSecret\nspec:\n  encryptedData:\n    password: Ag${drawn(BASE64_CHARS, 180)}`,
      '  <password>{AQAAABAAAAAQps8Q5n+M2/ZBJ22PFh8bDi4Jzel9ATTHt8kc8r4ajzvH=}</password>',
      'curl -u USERNAME:API_TOKEN https://your-domain.atlassian.net/rest/api/3/myself',
      'cache: key="user:42"',
      'email: user@(example.com)/path',
    ]);
  });
});

describe("a device's lines quoted after other text, and prose about usernames and passwords", () => {
  it("redacts Cisco's and Junos' secrets after other text, and keeps prose that names a username and a password", () => {
    assertRedacts([
      ['We decided to keep it because it works: snmp-server community monitor7231 RO 10', `We decided to keep it because it works: snmp-server community ${R('config-password')} RO 10`],
      ['the doc says: username netadmin privilege 15 password 0 Cisco3004!', `the doc says: username netadmin privilege 15 password 0 ${R('config-password')}`],
      ['enable password Cisco3004!', `enable password ${R('config-password')}`],
    ]);
    assertKeeps(['Fixed parsing of username and password encoded in the URI', 'configured to use username and password authentication.', 'please enable password authentication', 'the online community { is great }']);
  });
});

describe("round 32: vsql -w, a parameter list's Name and Value, Vault's unseal keys, dotnet user-secrets", () => {
  it('redacts them', () => {
    const unseal = drawn(BASE64_CHARS, 44);
    assertRedacts([
      ['vsql -h vertica01 -U dbadmin -w Vertica570 -c "SELECT 1"', `vsql -h vertica01 -U dbadmin -w ${R('command-line-password')} -c "SELECT 1"`],
      ['<Parameter>\n    <Name>ftpPassword</Name>\n    <Value>EdijVtGc5865</Value>\n</Parameter>', `<Parameter>\n    <Name>ftpPassword</Name>\n    <Value>${R('xml-secret')}</Value>\n</Parameter>`],
      [`Unseal Key 1: ${unseal}`, `Unseal Key 1: ${R('vault-token')}`],
      ['$ dotnet user-secrets set "Secret:Password" "DevU2EPfNYuUl!"', `$ dotnet user-secrets set "Secret:Password" "${R('command-line-password')}"`],
    ]);
    assertKeeps(['<Parameter>\n    <Name>ftpUser</Name>\n    <Value>edi_partner</Value>\n</Parameter>']);
  });
});

describe("round 33: Django's create_superuser, browser tests typing a password, Discord bot tokens, NixOS' adminpass; kept: a pre-shared key's identity", () => {
  it('redacts them', () => {
    assertRedacts([
      ['User.objects.create_superuser("admin", "admin@example.com", "Django4521!x")', `User.objects.create_superuser("admin", "admin@example.com", "${R('positional-password')}")`],
      ['cy.get("#password").type("Cypress541!");', `cy.get("#password").type("${R('positional-password')}");`],
      [`await page.fill('input[name="password"]', 'Playwr1ght!x');`, `await page.fill('input[name="password"]', '${R('positional-password')}');`],
      ['client.run("l3kctyzOoOMteNO8nC8xLaU7.AzAsW2.C_JsPrLAq-GJV6xUBvBdbTgNAUrP9ceYJIncX4")', `client.run("${R('discord-bot-token')}")`],
      ['config.adminpass = "Nixos9030$";', `config.adminpass = "${R('generic-assignment')}";`],
    ]);
  });

  it("keeps another field typed into, a dotted triple with no bot named, bypass, a key's identity", () => {
    assertKeeps([
      'cy.get("#email").type("qa@acme.io");',
      'PZ1yGvKTjE0rY0cV8i47CjAa.uRHQPq.Xb1Mk2nEhe-4iUcrGOuegj57zMC',
      'bypass = "some-value-here"',
      '"pg-types": "2.2.0", "pgpass": "1.0.5" }',
      '"pre_shared_key": null,\n"psk_identity": "gw-eu-1"',
    ]);
  });
});

describe("round 34: rdesktop, ncftpput, winrs, a password file made by echo, Cloudflare's global key, Italian chiave; kept: a deploy tool's substitution", () => {
  it('redacts them', () => {
    assertRedacts([
      ['rdesktop -u admin -p Desk7147top! 10.2.0.8', `rdesktop -u admin -p ${R('command-line-password')} 10.2.0.8`],
      ['ncftpput -u uploader -p Upload629# ftp.host.net /incoming report.csv', `ncftpput -u uploader -p ${R('command-line-password')} ftp.host.net /incoming report.csv`],
      ['winrs -r:srv02 -u:CORP\\ops -p:JxhAzvI0GxJ4WTgQ ipconfig /all', `winrs -r:srv02 -u:CORP\\ops -p:${R('command-line-password')} ipconfig /all`],
      ['rsync -av ./dist rsync://deploy@mirror/site --password-file=<(echo D0IHOcv0bv4ievxIS2FX)', `rsync -av ./dist rsync://deploy@mirror/site --password-file=<(echo ${R('command-line-password')})`],
      ['cf = CloudFlare.CloudFlare(email="ops@acme.io", key="00387ddca8ad1121526109cce8dcab5b1f7f4")', `cf = CloudFlare.CloudFlare(email="ops@acme.io", key="${R('cloudflare-global-api-key')}")`],
      ['La chiave API di produzione è GViKO1KrvZEl4t2wss0COgjI5NlJ9iuq', `La chiave API di produzione è ${R('prose-secret')}`],
    ]);
    assertKeeps(['<add key="SmtpPassword" value="#{SmtpPassword}#" />', 'rsync -av --password-file=/etc/rsync.secret ./dist rsync://x/y']);
  });
});

describe("a SQL INSERT's values under their columns; a key's word then a drawn value with no verb", () => {
  it('redacts them', () => {
    assertRedacts([
      ["INSERT INTO service_accounts (name, api_key) VALUES ('etl', 'a3Fq9ZrT0bWm7xKp2LsV8nHd');", `INSERT INTO service_accounts (name, api_key) VALUES ('etl', '${R('positional-password')}');`],
      ["INSERT INTO users (email, password) VALUES ('a@b.io', 'Winter2024!'), ('c@d.io', 'Summer99$x');", `INSERT INTO users (email, password) VALUES ('a@b.io', '${R('positional-password')}'), ('c@d.io', '${R('positional-password')}');`],
      ['git commit -m "temp: hardcode api key iZGTS22r3GH6cXpV3Y4xHOpL8EExqx9w to unblock demo"', `git commit -m "temp: hardcode api key ${R('prose-secret')} to unblock demo"`],
    ]);
  });

  it("keeps a hash's column, a secret's name, a bound parameter, a placeholder, a word after a key's word", () => {
    assertKeeps([
      "insert into `users` (`email`, `password_hash`) values ('a@b.io', '$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW');",
      "INSERT INTO secrets (name, secret_name) VALUES ('db', 'prod/orders/db');",
      "INSERT INTO users (name, password) VALUES ('bob', ?);",
      "INSERT INTO users (name, password) VALUES ('bob', 'changeme');",
      'the api key rotation_schedule_quarterly is documented in the runbook',
      'refresh the token before_expiry_callback_handler runs',
    ]);
  });
});

describe("round 35: a Teams webhook's V2 signature, Fly.io macaroons, a token a few words on, Turkish api key'i; kept: a CI cache's key, a token's accessor", () => {
  it('redacts them', () => {
    assertRedacts([
      [
        'https://acme.webhook.office.com/webhookb2/c050ae34-d73f-e930-39a3-2ff6622bbffc@47d43f1d-31e4-0f72-1126-e087e89a27a5/IncomingWebhook/80a559a85b8710ffd0a7ddbe6d9038b4/c48c642f-2d48-382f-9f11-640f50ce25c2/V2m6M94MXQg99wOQIlndPBJYtNv_o3mXRQPk3Wddxp',
        `https://acme.webhook.office.com/webhookb2/${R('teams-webhook-url')}`,
      ],
      [
        `FLY_API_TOKEN: FlyV1 fm2_${'BvLHgSFcdHwd-o8U_3Gcm2gbexBBrlwsBOul1bYlf6ST'.repeat(3)},fm2_lJPECAAAAAAAAMXjxBBbDIVWVx0Hk2`,
        `FLY_API_TOKEN: FlyV1 ${R('flyio-access-token')}`,
      ],
      ['wip: hardcode staging token so QA can test (wfOSX4vkLHnmRiIgdO9BfUlSflesI7eI) -- REMOVE', `wip: hardcode staging token so QA can test (${R('prose-secret')}) -- REMOVE`],
      ["staging api key'i f8523468775a61950aa4ba080ac455ff53b25257, bunu .env dosyasına ekle", `staging api key'i ${R('prose-secret')}, bunu .env dosyasına ekle`],
    ]);
  });

  it("keeps a CI cache's key, a token's accessor, a commit's hash a few words after a token's word", () => {
    assertKeeps([
      'Restored cache from key: node-cache-Linux-x64-npm-d3f8ffe32ae2059ba3b6ae0a7fb4f634ee64bbf5924d8f6a7f046cb85a537687',
      '$ vault token lookup -accessor GCXJWaKCdQQ9eY8rpuWQcYny',
      'the token refresh landed in commit 258e09e04c95d352113f3b60e9d723d9cc0867ed',
    ]);
  });
});

describe("round 36: curl.exe -u, OpenWeatherMap's appid, ldap3's Connection by position; kept: certificates and public keys in indented PEM blocks", () => {
  it('redacts them', () => {
    assertRedacts([
      ['curl.exe -s -u "svc_reports@acme.io:Paddle66!boat" "https://acme.atlassian.net/rest/api/2/search"', `curl.exe -s -u "svc_reports@acme.io:${R('command-line-password')}" "https://acme.atlassian.net/rest/api/2/search"`],
      ['curl "https://api.openweathermap.org/data/2.5/weather?q=Berlin&appid=090d99cb726858849a178ec8c1f59bf4"', `curl "https://api.openweathermap.org/data/2.5/weather?q=Berlin&appid=${R('url-token')}"`],
      ['conn = Connection(server, "cn=svc-ldap,ou=services,dc=acme,dc=io", "Ldap704Bind#", auto_bind=True)', `conn = Connection(server, "cn=svc-ldap,ou=services,dc=acme,dc=io", "${R('positional-password')}", auto_bind=True)`],
    ]);
  });

  it("keeps a certificate's and a public key's lines, another Connection's arguments, an app's numeric id", () => {
    assertKeeps([
      'caBundle: |\n  -----BEGIN CERTIFICATE-----\n  MIICIqtK7kvgLVtvgltj4LX1G4BiLQKT4j703YqxaNXaJ1bu9MxLEyiTibGjEsj3\n  -----END CERTIFICATE-----',
      'public-key: |\n    -----BEGIN PUBLIC KEY-----\n    MIIBRDWPLpU6oON2pFzFUUPyLPeYd1nGJ5Vm3eEkNdNtG2obN88/lb2eKDNCkhhr\n    -----END PUBLIC KEY-----',
      'conn = Connection(host, "orders", "reporting")',
      'https://store.steampowered.com/api/appdetails?appid=730',
    ]);
  });
});

describe("round 37: servers' config syntaxes, printed credential files, password managers' CSV exports, a token as a URL's user", () => {
  it('redacts them', () => {
    assertRedacts([
      ['WATCHTOWER_NOTIFICATION_URL: "discord://4wFogv650NUMFfW8KcRSDJpHOKcbKWdbegnOzmoD@1009119298615531601"', `WATCHTOWER_NOTIFICATION_URL: "discord://${R('url-password')}@1009119298615531601"`],
      ['secure_link_md5 "$secure_link_expires$uri$remote_addr kBCYMAxYXVcDFOX7vj";', `secure_link_md5 "$secure_link_expires$uri$remote_addr ${R('config-password')}";`],
      ['    stats auth admin:Parsnip50', `    stats auth admin:${R('config-password')}`],
      ['$ poetry config http-basic.acme ci-bot Ostrich374?', `$ poetry config http-basic.acme ci-bot ${R('command-line-password')}`],
      ['$ sudo cat /etc/pgbouncer/userlist.txt\n"pgbouncer_admin" "Mongoose698*"', `$ sudo cat /etc/pgbouncer/userlist.txt\n"pgbouncer_admin" "${R('config-password')}"`],
      ['user queue-worker on >JQOqiPfTPDy4dEe0JB1i ~jobs:* &* +@list', `user queue-worker on >${R('config-password')} ~jobs:* &* +@list`],
      ['org.apache.zookeeper.server.auth.DigestLoginModule required\n    user_super="oqJ1go5ft-P_FZeyDJj5";', `org.apache.zookeeper.server.auth.DigestLoginModule required\n    user_super="${R('config-password')}";`],
      ['$ sudo cat /etc/mongod/rs0.keyfile\nEdqN0p+lBY7MUAq6oJeM4aQhk6Xf+1pmgg1lCvX', `$ sudo cat /etc/mongod/rs0.keyfile\n${R('printed-secret')}`],
      ['encrypt    = "1OROXFVktMVYeTIrSSdMqCN93edAqlSn29sJ0UzBtl/="', `encrypt    = "${R('config-password')}"`],
      ['      - routing_key: 71e3889a11f5f441d5bac5e84a29aec7', `      - routing_key: ${R('pagerduty-integration-key')}`],
      ['$ cat .vault_pass\nTurnip391-Lantern', `$ cat .vault_pass\n${R('printed-secret')}`],
      ["net ads join -U 'Administrator%Winter8553$' createcomputer=Servers/Linux", `net ads join -U 'Administrator%${R('command-line-password')}' createcomputer=Servers/Linux`],
      ['  SQLConnectInfo    proftpd@localhost proftpd ZRirLSyp2o6jkZ8YkSuS', `  SQLConnectInfo    proftpd@localhost proftpd ${R('config-password')}`],
      ['$ sudo cat /etc/openvpn/client/auth.txt\nvpnuser.jdoe\nCactus4294!', `$ sudo cat /etc/openvpn/client/auth.txt\nvpnuser.jdoe\n${R('printed-secret')}`],
      ['folder,type,name,login_uri,login_username,login_password\nWork,login,Jira,https://acme.atlassian.net,jdoe@acme.com,Pretzel364!Salt', `folder,type,name,login_uri,login_username,login_password\nWork,login,Jira,https://acme.atlassian.net,jdoe@acme.com,${R('table-secret')}`],
      ['"Account","Login Name","Password","Web Site"\n"Synology NAS","admin","9umekEptCUM5l15YSNPl","https://nas.home.arpa:5001"', `"Account","Login Name","Password","Web Site"\n"Synology NAS","admin","${R('table-secret')}","https://nas.home.arpa:5001"`],
      ['# /etc/ppp/chap-secrets\nana\t*\tCh4p-An4!\t*', `# /etc/ppp/chap-secrets\nana\t*\t${R('config-password')}\t*`],
    ]);
  });

  it("keeps a flag after get-token, an external psk, Tomcat's auth mode, a Sentry DSN's public key, a queue's routing key, a shell's redirect", () => {
    assertKeeps([
      'args: ["--region", "eu-west-1", "eks", "get-token", "--cluster-name", "platform"]',
      'network={\n    ssid="Workshop-2G"\n    psk=ext:psk_workshop\n}',
      '<Resource name="jdbc/OrdersDB" auth="Container" type="javax.sql.DataSource"',
      'Sentry.init({ dsn: "https://8a3eecd2caacb6372bb5f43f6790dedb@o795575.ingest.sentry.io/4504" })',
      'channel.basic_publish(exchange="orders", routing_key="orders.created.v2", body=msg)',
      'user deploy on ~cache:* +get\necho done >build.log',
    ]);
  });
});

describe('round 38: machine-written text (process lists, stack traces, env tables, argument lists, protocol dumps, tools printing a new password)', () => {
  it('redacts them', () => {
    assertRedacts([
      ['/usr/bin/java -Djavax.net.ssl.keyStorePassword=Keystore7876 -cp /opt/kafka/libs/*', `/usr/bin/java -Djavax.net.ssl.keyStorePassword=${R('generic-assignment')} -cp /opt/kafka/libs/*`],
      ['        - in: header\n          name: X-Api-Key\n          schema:\n            type: string\n          example: ak_live_OEy9iD8JOSXryYQ0cXRgGLD3WrH4MKxf', `        - in: header\n          name: X-Api-Key\n          schema:\n            type: string\n          example: ${R('generic-assignment')}`],
      ['Action arguments: use Z: \\\\fs01.corp.local\\backups /user:CORP\\svc_backup Filing232Cabinet /persistent:no', `Action arguments: use Z: \\\\fs01.corp.local\\backups /user:CORP\\svc_backup ${R('command-line-password')} /persistent:no`],
      ["#0 /var/www/html/inc/db.php(8): mysqli->__construct('localhost', 'shop', 'Paprika485', 'shop_db')", `#0 /var/www/html/inc/db.php(8): mysqli->__construct('localhost', 'shop', '${R('positional-password')}', 'shop_db')`],
      ['PS C:\\agent> Get-ChildItem Env: | Sort-Object Name\n\nName                           Value\n----                           -----\nSMTP_PASSWORD                  Kettle81!Moss\nSMTP_USER                      noreply@contoso.com', `PS C:\\agent> Get-ChildItem Env: | Sort-Object Name\n\nName                           Value\n----                           -----\nSMTP_PASSWORD                  ${R('printed-secret')}\nSMTP_USER                      noreply@contoso.com`],
      ['"cmd": ["rabbitmqctl", "add_user", "billing", "Rabbit136Hole"]', `"cmd": ["rabbitmqctl", "add_user", "billing", "${R('command-line-password')}"]`],
      ['"Test": [\n    "CMD",\n    "mysqladmin",\n    "ping",\n    "-uroot",\n    "-pCxuLuZJyuoaUdG5hNskC3UHs"\n]', `"Test": [\n    "CMD",\n    "mysqladmin",\n    "ping",\n    "-uroot",\n    "-p${R('command-line-password')}"\n]`],
      ['$ etcdctl --endpoints=https://etcd-0:2379 get /config/payments/db_password\n/config/payments/db_password\nPineapple126@Sea', `$ etcdctl --endpoints=https://etcd-0:2379 get /config/payments/db_password\n/config/payments/db_password\n${R('printed-secret')}`],
      [`echo b.AAAAAQ${'TP1pDRSWhjtFgwIkpg9h0R9ocsoMr9i7m0QHGU_xBFs'.repeat(2)} > ~/.vault-token`, `echo ${R('vault-token')} > ~/.vault-token`],
      ['write(7, "*2\\r\\n$4\\r\\nAUTH\\r\\n$17\\r\\nCormorant950!\\r\\n", 38) = 38', `write(7, "*2\\r\\n$4\\r\\nAUTH\\r\\n$17\\r\\n${R('config-password')}\\r\\n", 38) = 38`],
      ['<methodCall><methodName>wp.getUsersBlogs</methodName><params><param><value><string>admin</string></value></param><param><value><string>Sunrise0646!</string></value></param></params></methodCall>', `<methodCall><methodName>wp.getUsersBlogs</methodName><params><param><value><string>admin</string></value></param><param><value><string>${R('positional-password')}</string></value></param></params></methodCall>`],
      ['$ bin/elasticsearch-reset-password -u elastic -a -b\nPassword for the [elastic] user successfully reset.\nNew value: JtRfYnYVioAMdvU9er9W', `$ bin/elasticsearch-reset-password -u elastic -a -b\nPassword for the [elastic] user successfully reset.\nNew value: ${R('printed-secret')}`],
      ['127.0.0.1:6379> CONFIG GET requirepass\n1) "requirepass"\n2) "Lemonade92"', `127.0.0.1:6379> CONFIG GET requirepass\n1) "requirepass"\n2) "${R('config-password')}"`],
    ]);
  });

  it("keeps Vault's audit HMACs, prose quoting a fixture's phrase, a Twilio account in an API path, a store's name, an OpenAPI example placeholder", () => {
    assertKeeps([
      '{"auth":{"client_token":"hmac-sha256:98f15aa80dd094e0f223039d77df3de85984fb016c157bd66c462f852526d1b1"}}',
      '# fixture user created in conftest with password "correct-horse-battery-staple"',
      'POST https://api.twilio.com/2010-04-01/Accounts/AC58d274202cac767227679e43f06d9b53/Messages.json',
      'passwordStore = "team-vault"',
      '          name: X-Api-Key\n          example: your-api-key',
    ]);
  });
});

describe("round 39: what people write each other (tickets, runbooks, emails, chat), in English and other languages", () => {
  it('redacts them', () => {
    assertRedacts([
      ['tested with `mysqlsh --uri admin:Upgrade-OguXIQ-55@db-upgrade-test:3306 -- util checkForServerUpgrade`', `tested with \`mysqlsh --uri admin:${R('command-line-password')}@db-upgrade-test:3306 -- util checkForServerUpgrade\``],
      ['Generated a recovery token; result was hvr.sd9UHfu5r10SITPm4xCKjyDp.', `Generated a recovery token; result was ${R('vault-token')}.`],
      [`here's the API key:\n\nAQERryma7BEOQjVayDkdw1dY11fd28bqXcNYR0NFTKIsZHasmcJ6MO6QOiV7RisLsCA/jTqCtzBdGLbioE6mk0etmFKgxMEhFHLqHfxrqHbe/fqb0uy`, `here's the API key:\n\n${R('adyen-api-key')}`],
      ['the auth token got rotated — the one in our .env is `3576327420534da609ad84bf31cfa999`, can you compare?', `the auth token got rotated — the one in our .env is \`${R('prose-secret')}\`, can you compare?`],
      ['Postmark server API token for transactional mail (server "acme-prod"): 089d54fb-64ba-c992-1f0e-893cdb18f8c4', `Postmark server API token for transactional mail (server "acme-prod"): ${R('postmark-server-token')}`],
      ['Mapbox secret token: sk.eyJ1IjoiVNriYsAgQMoSzzF6q9SNMeswl_Q1F9LQH7QNfcDq.ZE4mkJHMlY-QUIe3XHnJg7', `Mapbox secret token: ${R('mapbox-secret-token')}`],
      ['CLOUDINARY_URL=cloudinary://069237991070216:AG8hIvMPlzUGQflyC16o_3qia8Q@acme-media', `CLOUDINARY_URL=cloudinary://${R('cloudinary-url')}@acme-media`],
      ['tls {\n  dns cloudflare YemOQt9xTyaEV-74JoXX6yZw1-shXEK1UjL8wu1J\n}', `tls {\n  dns cloudflare ${R('config-password')}\n}`],
      ['阿里云 OSS 上传脚本里的 AccessKeySecret：wE4vLx60EBSgB2x4zPNlesGuIaPMWO，AccessKeyId 在控制台', `阿里云 OSS 上传脚本里的 AccessKeySecret：${R('generic-assignment')}，AccessKeyId 在控制台`],
      ['EMAIL_URL: smtp+tls://notifications@acme.dev:Notify607Mail@smtp.office365.com:587', `EMAIL_URL: smtp+tls://notifications@acme.dev:${R('url-password')}@smtp.office365.com:587`],
      ["> what's the password for the shared Figma viewer account?\n\nit's purple-elephant-18 — same as last quarter", `> what's the password for the shared Figma viewer account?\n\nit's ${R('prose-secret')} — same as last quarter`],
      ['Kiosk admin PIN-password is Kiosk8690, we will change it', `Kiosk admin PIN-password is ${R('prose-secret')}, we will change it`],
      ['Tài khoản test cho môi trường staging: tester / Pho6810Bo!', `Tài khoản test cho môi trường staging: tester / ${R('prose-secret')}!`],
      ['|===\n|Benutzer |wiki_restore\n|Passwort |Wiki465Restore!\n|===', `|===\n|Benutzer |wiki_restore\n|Passwort |${R('table-secret')}\n|===`],
      ['The geocoding service key used by the nightly import is ``thwQJPelJvDNaib8KgRmKS67vnzF1dg78kJNh4X``.', `The geocoding service key used by the nightly import is \`\`${R('prose-secret')}\`\`.`],
      ['the internal metrics API wants an X-API-Token header; mine is mt_Kl9V98UxnMUznyAzthCLYxuMxNw1GXUkaelvfHRk.', `the internal metrics API wants an X-API-Token header; mine is ${R('prose-secret')}.`],
    ]);
  });

  it("keeps where a password is kept, a YAML alias, a public key, a commit's hash after a token's word, a type in a table, a value cut short", () => {
    assertKeeps([
      '本番DBのパスワードは1Passwordの「本番DB（orders）」に保存しています。',
      'defaults: &db_defaults\n  password: *db_password',
      '  public key: GYr6Ve2W/3Uy2a+Fl/D+TmD5I1ySt/Kx0ZbIu9bHm2M=',
      'the token refresh fix is in `9f86d081884c7d659a2feaa0c55ad015a3bf4f1b`',
      '| token | TSESTree.Token |',
      'fn::secret: ops_eyJzaWduSW5B..[Redacted]',
      '| password | required |',
    ]);
  });
});

describe("round 40: an Azure Function's key, a Cloudflare Tunnel token, kubeadm's bootstrap token, a password in a commit message's parentheses, Mosquitto's C client", () => {
  it('redacts them', () => {
    assertRedacts([
      ['fetch("https://thumbnailer-prod.azurewebsites.net/api/Resize?code=nl8kcMytAEqxUU12dIA2Yb0RhS7Ilz_WQ7ZXdYkvI15KOLQrG5Sjix==")', `fetch("https://thumbnailer-prod.azurewebsites.net/api/Resize?code=${R('azure-function-key')}")`],
      ['PS> cloudflared.exe service install eyJhIjoivvdvL0epy0YEb0xaliHdlf3SczPvSJnQ8kBcJA-9VxFSPTrYFQet8ShgZUyO59xzh_s9RK2kTQ7Kst', `PS> cloudflared.exe service install ${R('cloudflare-tunnel-token')}`],
      ['kubeadm join 10.0.0.10:6443 --token tLOm2V.YOGCHroFDYjkyyfK \\', `kubeadm join 10.0.0.10:6443 --token ${R('command-line-password')} \\`],
      ['hotfix: hardcode staging admin password (Staging771Admin) until vault agent is back', `hotfix: hardcode staging admin password (${R('prose-secret')}) until vault agent is back`],
      ['mosquitto_username_pw_set(mosq, "sensor-node-7", "Humid388Sensor");', `mosquitto_username_pw_set(mosq, "sensor-node-7", "${R('positional-password')}");`],
    ]);
  });

  it("keeps an option's note in parentheses, a function's other query, kubeadm's discovery hash", () => {
    assertKeeps([
      'password (optional) — leave empty to use the agent',
      '- Rotated the staging DB password (OPS-1423); new one in the vault',
      'https://app.azurewebsites.net/api/status?name=thumbnailer',
      '--discovery-token-ca-cert-hash sha256:183666bec32711f16b45a6ce3aa28e95ae34e79156bbfeed732a614c87be0eda',
    ]);
  });
});

describe('round 41: recent and niche services (Cloud SQL DSNs, Spark properties, Alibaba profiles, Convex, wandb, Honeycomb, Statsig, Unleash, steamcmd, Particle, zip)', () => {
  it('redacts them', () => {
    assertRedacts([
      ['DSN: "ingest:Kestrel_151_blue@cloudsql-mysql(acme-events:us-central1:events-sql)/events?parseTime=true",', `DSN: "ingest:${R('dsn-password')}@cloudsql-mysql(acme-events:us-central1:events-sql)/events?parseTime=true",`],
      ['spark.hadoop.fs.s3a.secret.key            f400f04FnIQxMaL505Hk87ds84SlgeDZgwZcWTyx', `spark.hadoop.fs.s3a.secret.key            ${R('generic-assignment')}`],
      ['DefaultProfile.getProfile("cn-hangzhou", "LTAI65QcPzNR9oEbLBegcBhY", "BD8m9MvKsUXSSOnVZfHz5aXUTyCllT");', `DefaultProfile.getProfile("cn-hangzhou", "${R('alibaba-access-key-id')}", "${R('positional-password')}");`],
      ["CONVEX_DEPLOY_KEY='prod:happy-otter-123|R3TSIjAwxeQjkKnrL1M_0pQx-fQrv1SC-jx05fwuCkfId9MSrR3yrgO6uKjU' npx convex deploy", `CONVEX_DEPLOY_KEY='${R('convex-deploy-key')}' npx convex deploy`],
      ['$ wandb login c0a29a09a152467ce9437fb369e6bda66c404414', `$ wandb login ${R('command-line-password')}`],
      ['      x-honeycomb-team: hcaik_GminXpKp1gvEetyYdinEvphSbwBZuPXZiW7Lu9MgbCqqgqgzhNO5u9rHRF', `      x-honeycomb-team: ${R('honeycomb-api-key')}`],
      ['await Statsig.initialize("secret-g0RhS2RZJgZNNpQaHYFq6Z3H8lC24yG8V0adYbypL39", {});', `await Statsig.initialize("${R('statsig-server-secret')}", {});`],
      ['http.Header{"Authorization": {"*:production.da27d74850f63e813b9a2060a05bf8d1e09e7af6a956300766c22344"}}', `http.Header{"Authorization": {"*:production.${R('unleash-api-token')}"}}`],
      ['bot.run("KKIVPW76NPrJYPM8_vfxtT2ubd.dFpnXJ.93sWCxJlO2n8Cy5FCilgW_JZApkL6--L_FUamZ")', `bot.run("${R('discord-bot-token')}")`],
      ['$ ./steamcmd.sh +force_install_dir /srv/valheim +login valheim_host Longship573! +app_update 896660', `$ ./steamcmd.sh +force_install_dir /srv/valheim +login valheim_host ${R('command-line-password')} +app_update 896660`],
      ['$ particle token create --expires-in 31536000\n? Please enter your password: [hidden]\nNew access token never expires\n    44ba0295ff3debaea40702dfc67bf2de99a1fff1', `$ particle token create --expires-in 31536000\n? Please enter your password: [hidden]\nNew access token never expires\n    ${R('printed-secret')}`],
      ["$ zip -r -P 'Octopus312ink' customer-export-2024-11.zip exports/", `$ zip -r -P '${R('command-line-password')}' customer-export-2024-11.zip exports/`],
    ]);
  });

  it("keeps a token's table without an id, an assignment of a placeholder quoted as a value, validation rules, a Git hash after a branch", () => {
    assertKeeps([
      '$ vault token lookup -accessor 58W0K6wOJS6y8ChTfKLfzsxf\nKey                 Value\n---                 -----\nid                  n/a\npolicies            [default dev-read]',
      `secret: 'password = "{{ vault_pg_admin_password }}"'`,
      "$validated = $request->validate(['password' => 'required|min:12|confirmed']);",
      'origin:main.4f3a2b1c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a',
      '$ wandb login --relogin',
    ]);
  });
});

describe("round 42: an ECR token past 1,000 characters, 7-Zip's -p, lftp's quoted password, Bitwarden's unlock", () => {
  it('redacts them', () => {
    const ecr = `eyJwYXlsb2FkIjoi${'UuX4EpnsPFCxvaQklIew2VjGRgXW84NmYHA7qMWnzUC5GP3BycQQTmhk/dclKsW+x2jkP08d'.repeat(20)}`;
    assertRedacts([
      [`$ docker login -u AWS -p ${ecr} 123.dkr.ecr.eu-west-1.amazonaws.com`, `$ docker login -u AWS -p ${R('command-line-password')} 123.dkr.ecr.eu-west-1.amazonaws.com`],
      ['$ 7z a -t7z -mhe=on -pQuarter54Close! client-exports-2024Q2.7z ./exports/q2/', `$ 7z a -t7z -mhe=on -p${R('command-line-password')} client-exports-2024Q2.7z ./exports/q2/`],
      [`lftp -u uploader,'UploadXCDx92' -e "mirror -R ./site /public_html; quit" ftp.example.net`, `lftp -u uploader,'${R('command-line-password')}' -e "mirror -R ./site /public_html; quit" ftp.example.net`],
      ["$ bw unlock 'my dog rex 0166' --raw > ~/.bw_session", `$ bw unlock '${R('command-line-password')}' --raw > ~/.bw_session`],
    ]);
  });

  it("keeps 7-Zip's other switches and Bitwarden's unlock with no password", () => {
    assertKeeps(['$ 7z x -o./out archive.7z', '$ bw unlock --raw', '$ bw unlock --passwordenv BW_PASSWORD']);
  });
});

describe("round 43: curl -u in a tool call's escaped JSON, Bundler's gem source credentials; kept: policies, BuildKit specs", () => {
  it('redacts them', () => {
    assertRedacts([
      ['{"arguments":"{\\"command\\":\\"curl -u \\\\\\"grafana:Gr4fanaDyNK90\\\\\\" http://localhost:3000/api/datasources\\"}"}', `{"arguments":"{\\"command\\":\\"curl -u \\\\\\"grafana:${R('command-line-password')}\\\\\\" http://localhost:3000/api/datasources\\"}"}`],
      ['$ bundle config\nenterprise.contribsys.com\nSet for your local app (/srv/app/.bundle/config): "972d4a9d:e09188c5"', `$ bundle config\nenterprise.contribsys.com\nSet for your local app (/srv/app/.bundle/config): "${R('printed-secret')}"`],
      ['$ bundle config set --global enterprise.contribsys.com 972d4a9d:e09188c5', `$ bundle config set --global enterprise.contribsys.com ${R('sidekiq-secret')}`],
      ['$ bundle config set --global gems.acme.io ci-bot:Gh8kQ2rLm9xW', `$ bundle config set --global gems.acme.io ${R('command-line-password')}`],
    ]);
  });

  it("keeps an assignment in parentheses, a password policy's history, a BuildKit secret's spec", () => {
    assertKeeps([
      '// local docker mysql has no root password (MYSQL_ALLOW_EMPTY_PASSWORD=yes)',
      '<PasswordHistory>24</PasswordHistory>\n<MinPasswordLength>14</MinPasswordLength>',
      '# build with: docker build --secret id=npm_token,env=NPM_TOKEN .',
    ]);
  });
});

describe("round 44: heroku auth:token after the CLI's warnings, Jenkins' createAccount; kept: a Twilio account's SID, an S3 ETag", () => {
  it('redacts them', () => {
    assertRedacts([
      ['$ heroku auth:token\n ›   Warning: token will expire 04/12/2025\n ›   Use heroku authorizations:create to generate a long-term token\nc6537da6-a97d-348f-31ff-fab55d8213d1', `$ heroku auth:token\n ›   Warning: token will expire 04/12/2025\n ›   Use heroku authorizations:create to generate a long-term token\n${R('printed-secret')}`],
      ['hudsonRealm.createAccount("admin", "Jenkins3391!Butler")', `hudsonRealm.createAccount("admin", "${R('positional-password')}")`],
      // A `public key:` line names its own value, not the next line's (found by the raw-bytes scan, cases joined).
      ['# public key: age1FDwuwwAh4Lm79DxbF4M8uPp16GqWKv0s9FQjSqEYEvN68lDSK7GebyUdKv\nconst client = algoliasearch("1470KVA1IA", "f98ec5ed5e8443034dd319016f986ed2");', `# public key: age1FDwuwwAh4Lm79DxbF4M8uPp16GqWKv0s9FQjSqEYEvN68lDSK7GebyUdKv\nconst client = algoliasearch("1470KVA1IA", "${R('high-entropy-string')}");`],
    ]);
  });

  it("keeps a Twilio account's SID (its name, in every API path), an S3 response's ETag, another createAccount", () => {
    assertKeeps([
      'INFO twilio: message SMe39231cb9259783d88320dd00f8edb52 queued (account AC7f2a2867cf2aa64f3a97a713959cf6a3)',
      'client = Client("AC7f2a2867cf2aa64f3a97a713959cf6a3", os.environ["TWILIO_AUTH_TOKEN"])',
      '< ETag: "2d7c06bf30a672b0e18b7fe7136fb886"',
      'accounts.createAccount("bob", "bob@example.com")',
    ]);
  });
});

describe("round 45: a JSON Web Token's signing key as a literal, a login told as `user` / `…`; kept: placeholders after your / my", () => {
  it('redacts them', () => {
    assertRedacts([
      ['const token = jwt.sign(payload, "my-super-OXpsqq-6815", { expiresIn: "1h" });', `const token = jwt.sign(payload, "${R('positional-password')}", { expiresIn: "1h" });`],
      ['claims = jwt.decode(raw, "k8s-Deploy-Sign-2291", algorithms=["HS256"])', `claims = jwt.decode(raw, "${R('positional-password')}", algorithms=["HS256"])`],
      ['Login with user `grafana-admin` / `CSCmJ33wGIed` on the shared box.', `Login with user \`grafana-admin\` / \`${R('prose-secret')}\` on the shared box.`],
    ]);
  });

  it("keeps a key from the environment, jwt.io's and the docs' placeholders, a word", () => {
    assertKeeps([
      'const token = jwt.sign(payload, process.env.JWT_SECRET, { expiresIn: "1h" });',
      'jwt.verify(token, "your-256-bit-secret")',
      "jwt.sign({ foo: 'bar' }, 'shhhhh');",
      'JWT.encode(payload, "secret", "HS256")',
      'Login with user `grafana-admin` / `<password>` on the shared box.',
    ]);
  });
});

describe("round 46: values past 1,000 characters, secrets printed in containers and by kubectl with options first, Vault unseal keys; kept: Helm's checksums, Vault policies", () => {
  it('redacts them', () => {
    const long = 'HDfEcOxD1ukk128pVsID6ayPOWkb+p1vxDOh9Vmn5DIESlk6Dd/'.repeat(45);
    assertRedacts([
      [`GOOGLE_CREDENTIALS_B64=${long}\nGOOGLE_PROJECT=acme-prod`, `GOOGLE_CREDENTIALS_B64=${R('generic-assignment')}\nGOOGLE_PROJECT=acme-prod`],
      ['$ kubectl -n argocd get secret argocd-initial-admin-secret -o jsonpath="{.data.password}" | base64 -d; echo\n8slaQVrIPmHlKETe', `$ kubectl -n argocd get secret argocd-initial-admin-secret -o jsonpath="{.data.password}" | base64 -d; echo\n${R('printed-secret')}`],
      ['$ docker exec jenkins cat /var/jenkins_home/secrets/initialAdminPassword\n60c6878bdccd925eac6e361ce269cb6f', `$ docker exec jenkins cat /var/jenkins_home/secrets/initialAdminPassword\n${R('printed-secret')}`],
      ['$ argocd admin initial-password -n argocd\nQm4rT7vXp2LwZs9k\n\n This password must be only used for first time login.', `$ argocd admin initial-password -n argocd\n${R('printed-secret')}\n\n This password must be only used for first time login.`],
      ['$ vault operator unseal ZOQG7eMIN+kJX0bdwstX4ZqDWdKQ6SL6ZY3kh0scZHR+\nKey                Value', `$ vault operator unseal ${R('command-line-password')}\nKey                Value`],
    ]);
  });

  it("keeps a Helm chart's checksum annotations, a Vault role's policies, an unseal that prompts", () => {
    assertKeeps([
      '      annotations:\n        checksum/config: 076992c7cb6606ff4a8a6a22ef195ff3a8917a887e3189e2dd1fe65dc79df70a\n        checksum/secret: 9280074295d75dec21e67b1e54f3fb287163c9cdb4702690b8409b0581d5231d',
      'vault write auth/approle/role/ci token_ttl=1h token_max_ttl=4h secret_id_ttl=24h token_policies="ci-read"',
      '$ vault operator unseal\nUnseal Key (will be hidden):',
    ]);
  });
});

describe("round 47: altool's -p, a Google credentials file in base64, UI tests typing a password, OneSignal's keys; kept: browser analytics keys, Datadog's client tokens, a key file's path", () => {
  it('redacts them', () => {
    const credentials = `ewogICJ0eXBl${'YP6O7Y39rCU0kgf2+n3ekaXnij6yZQOAZKfg8hMr/I1rjffwWsAul8EbEBxf220ApUsHN3X4a'.repeat(8)}`;
    assertRedacts([
      ['xcrun altool --upload-app -f build/Acme.ipa -t ios -u dev@acme.io -p qvQK-lFQE-DVkS-fHFU', `xcrun altool --upload-app -f build/Acme.ipa -t ios -u dev@acme.io -p ${R('command-line-password')}`],
      [`GOOGLE_SERVICE_ACCOUNT_BASE64=${credentials}`, `GOOGLE_SERVICE_ACCOUNT_BASE64=${R('gcp-service-account-key')}`],
      ['await element(by.id("password")).typeText("Thistle8535!");', `await element(by.id("password")).typeText("${R('positional-password')}");`],
      ['await page.getByLabel("Password").fill("Hunter2Lamp!9");', `await page.getByLabel("Password").fill("${R('positional-password')}");`],
      ['driver.find_element(By.ID, "password").send_keys("Hunter2Lamp!9")', `driver.find_element(By.ID, "password").send_keys("${R('positional-password')}")`],
      ["--header 'Authorization: Key os_v2_app_53AFYSWWJRF3DVHUSKDNRYHO7LW7VVJ6SPZ55SS7NRLEOB7AAYM5IXEB65BUZCHAWYOESAX4MUS4UE4DIT7NTCLOYSYQXIOITXMT'", `--header 'Authorization: Key ${R('onesignal-api-key')}'`],
    ]);
  });

  it("keeps analytics snippets' keys, a Datadog client token, a .p8 file's path, an altool keychain reference", () => {
    assertKeeps([
      'analytics.load("uXdiBEWnedfZEw43njZJBbdQExjN2UFU");\nanalytics.page();',
      'mixpanel.init("4ab3b2b1d6d5eadae03a1f4d9b614bc3", { track_pageview: true, persistence: "localStorage" });',
      "datadogRum.init({\n  applicationId: 'c4e6f2d0-4927-7c5b-9552-4a5017fc37e0',\n  clientToken: 'pub1c40d627f415fddb4755925c7f10f5f5',\n  site: 'datadoghq.com',\n});",
      '  token: {\n    key: "certs/AuthKey_N43ZIRXQ03.p8",\n    keyId: process.env.APNS_KEY_ID,\n  },',
      'xcrun altool --upload-app -f a.ipa -t ios -u dev@acme.io -p "@keychain:AC_PASSWORD"',
      'await element(by.id("email")).typeText("qa+prod@acme.io");',
    ]);
  });
});

describe("round 48: a Spark conf's value starting with +, kaggle.json, Trino's BasicAuthentication, databricks secrets put, a password ten words on; kept: an MLflow run id", () => {
  it('redacts them', () => {
    assertRedacts([
      ['spark.hadoop.fs.s3a.secret.key   +SayAAxhMADJju0eUeAybgU5WKaKf2/huPqFjF3h', `spark.hadoop.fs.s3a.secret.key   ${R('generic-assignment')}`],
      ['$ cat ~/.kaggle/kaggle.json\n{"username":"jdoe42","key":"e45daccea4e6a9b8dadc4e00ac2f3faa"}', `$ cat ~/.kaggle/kaggle.json\n{"username":"jdoe42","key":"${R('credential-pair')}"}`],
      ['    auth=BasicAuthentication("analyst", "Mosaic369-QULp"),', `    auth=BasicAuthentication("analyst", "${R('positional-password')}"),`],
      ['databricks secrets put-secret analytics-scope snowflake-password --string-value DDBbcUj4Rzb5mE9bl9kq', `databricks secrets put-secret analytics-scope snowflake-password --string-value ${R('command-line-password')}`],
      ["Here's the password for the shared jupyterhub account on the gpu box: GpuBnTTP805! (user ml-shared).", `Here's the password for the shared jupyterhub account on the gpu box: ${R('prose-secret')}! (user ml-shared).`],
    ]);
  });

  it('keeps an MLflow run id, a Databricks secret read from a file, kaggle.json with its key left out', () => {
    assertKeeps([
      'print(mlflow.get_run("28f978e4019bb25848feaf2cec6b8a63").data.metrics)',
      'databricks secrets put-secret analytics-scope snowflake-password --string-value "$SNOWFLAKE_PASSWORD"',
      '{"username":"jdoe42","key":"<your-kaggle-key>"}',
    ]);
  });
});

describe("round 51: Laravel's app key in PHP, secrets printed by generators, a Basic credential as a YAML list item; kept: a generator's command alone", () => {
  it('redacts them', () => {
    assertRedacts([
      ["    'key' => 'base64:peHI3iLM4g48hgSCPHhT6vuAgDelf5FTRfhKa3OTy/U=',", `    'key' => 'base64:${R('generic-assignment')}',`],
      ['$ mix phx.gen.secret\nJAXkBacF3FtNNgIhWCTanm/T+sWnhF37UkMcLS0+OrxgTcJF5A+9cKBIS5G78Fh7\n$ fly secrets set SECRET_KEY_BASE=...', `$ mix phx.gen.secret\n${R('printed-secret')}\n$ fly secrets set SECRET_KEY_BASE=...`],
      ['$ python -c "from django.core.management.utils import get_random_secret_key; print(get_random_secret_key())"\nlYAzAD3Eyb5wZrmivCqw9uVBt3fJwg=_3kZt6GsnPPvNqRQ57J', `$ python -c "from django.core.management.utils import get_random_secret_key; print(get_random_secret_key())"\n${R('printed-secret')}`],
      ['$ openssl rand -base64 32\nq3Vx9Lw2Zr8Tb1Nc6Ym4Kp0Hs7Dj5Fa2Ge8Ui1Oo3E=', `$ openssl rand -base64 32\n${R('printed-secret')}`],
      ['    headers:\n      Authorization:\n      - Basic oO8nGqUz5D+gmS6XuqMzTCpe0r4gS9HafPNqrB3U2t4L\n  response:', `    headers:\n      Authorization:\n      - Basic ${R('authorization-header')}\n  response:`],
    ]);
  });

  it("keeps a generator's command with no output after it, a Laravel key left empty", () => {
    assertKeeps([
      '$ mix phx.gen.secret',
      "    'key' => env('APP_KEY'),",
      '      Authorization:\n      - Basic <redacted>',
    ]);
  });
});

describe('round 49: a SecureString put to SSM, an expect script answering a password prompt; kept: a form text about a forgotten password', () => {
  it('redacts them', () => {
    assertRedacts([
      ["aws ssm put-parameter --name /prod/api/db_password --type SecureString --value 'mBdGuWf55x8ZjI8hiPLaCgSJ' --overwrite", `aws ssm put-parameter --name /prod/api/db_password --type SecureString --value '${R('command-line-password')}' --overwrite`],
      ['spawn ssh deploy@10.0.1.20\nexpect "password:"\nsend "Harbor5976\\r"\ninteract', `spawn ssh deploy@10.0.1.20\nexpect "password:"\nsend "${R('command-line-password')}\\r"\ninteract`],
      ["child.expect('Password:')\nchild.sendline('Harbor5976!')", `child.expect('Password:')\nchild.sendline('${R('command-line-password')}')`],
    ]);
  });

  it("keeps a form's texts, a plain String parameter, an expect script sending a variable", () => {
    assertKeeps([
      '"auth.forgotPassword": "Forgot your password?",\n"auth.resetToken.expired": "This reset link has expired."',
      "aws ssm put-parameter --name /prod/api/region --type String --value 'eu-west-1'",
      'expect "password:"\nsend "$password\\r"',
    ]);
  });
});

describe('round 50: Kerberos, password managers, MFA seeds, API Gateway keys, NATS seeds, HMAC keys, LDAP bind credentials; kept: a SAML certificate, OIDC method names', () => {
  it('redacts them', () => {
    assertRedacts([
      ['  "bindCredential": ["Larch248*Field"],', `  "bindCredential": ["${R('generic-assignment')}"],`],
      ["echo 'Marten489&Hill' | sudo realm join --user=Administrator corp.example.com", `echo '${R('command-line-password')}' | sudo realm join --user=Administrator corp.example.com`],
      ["echo 'Puffin2626!Cove' | kinit svc-hadoop@CORP.EXAMPLE.COM && klist", `echo '${R('command-line-password')}' | kinit svc-hadoop@CORP.EXAMPLE.COM && klist`],
      ["printf '%s\\n' 'addent -password -p svc-etl@CORP.EXAMPLE.COM -k 1 -e aes256-cts-hmac-sha1-96' 'Lupine259@Ridge' 'wkt /tmp/svc-etl.keytab' | ktutil", `printf '%s\\n' 'addent -password -p svc-etl@CORP.EXAMPLE.COM -k 1 -e aes256-cts-hmac-sha1-96' '${R('command-line-password')}' 'wkt /tmp/svc-etl.keytab' | ktutil`],
      ['kadmin -p admin/admin@CORP.EXAMPLE.COM -w Sable3420%Glen -q "addprinc -randkey HTTP/api.corp.example.com"', `kadmin -p admin/admin@CORP.EXAMPLE.COM -w ${R('command-line-password')} -q "addprinc -randkey HTTP/api.corp.example.com"`],
      ['  KRB5_KEYTAB_B64: "BQIAAA8A6BK+RUul/6+tsABWVNZfnfzrmiuqwqeqUlzl78HZWUDXErhuXRm8/pZ/qG1mfIn+FxiECLsucu3f"', `  KRB5_KEYTAB_B64: "${R('kerberos-keytab')}"`],
      ['subprocess.run(["kinit", "etl@CORP.EXAMPLE.COM"], input=b"Gorse717!Field\\n", check=True)', `subprocess.run(["kinit", "etl@CORP.EXAMPLE.COM"], input=b"${R('command-line-password')}\\n", check=True)`],
      ['$ sudo cat /etc/nginx/ssl/pass.txt\nCedar2702&Loch', `$ sudo cat /etc/nginx/ssl/pass.txt\n${R('printed-secret')}`],
      ['$ export BW_SESSION="W4KeZRkVAR9N190AIk5K1h66gH5slHkYnAcM57VuUlDFNXH7i36cb/jtgD2luPp/DkjkfBUZrbkIXI7VEFuJB5=="', `$ export BW_SESSION="${R('generic-assignment')}"`],
      ['$ bw get password ldap-admin\nzwijPA5eRRjeiEfvKWuUihgN\n$ ', `$ bw get password ldap-admin\n${R('printed-secret')}\n$ `],
      ['    "Base32StringSeed": "UIHYNJNEXWJB3JKZRKJS664GZZWJMNE2Z2C2IJELTV22UNT36VDOTBHUG7KYFAVZ"', `    "Base32StringSeed": "${R('generic-assignment')}"`],
      ['$ aws apigateway get-api-key --api-key akgH15ofoR --include-value\n{\n    "value": "Ryp2l1LIRiOl0vbS70sDZvs1wwstf0YxGPlOijHS",\n    "name": "partner-acme"\n}', `$ aws apigateway get-api-key --api-key ${R('command-line-password')} --include-value\n{\n    "value": "${R('printed-secret')}",\n    "name": "partner-acme"\n}`],
      ['-----BEGIN USER NKEY SEED-----\nSUA3D1UAEMXHWAC92VEBKJILZ670JZPI64KIM97ULCKJ6DQJARF8KS1D0M\n------END USER NKEY SEED------', `-----BEGIN USER NKEY SEED-----\n${R('private-key')}\n------END USER NKEY SEED------`],
      ['expected = hmac.new(b"NJ9ykzbh9E6WVhnBDR9KI3hNCi2b2U3q", request.get_data(), hashlib.sha256).hexdigest()', `expected = hmac.new(b"${R('positional-password')}", request.get_data(), hashlib.sha256).hexdigest()`],
      ["const sig = crypto.createHmac('sha256', 'whk-Rotor8812-Quay').update(body).digest('hex');", `const sig = crypto.createHmac('sha256', '${R('positional-password')}').update(body).digest('hex');`],
      ['the break-glass admin for the master realm is `admin` / `Chough5295!Isle` until', `the break-glass admin for the master realm is \`admin\` / \`${R('prose-secret')}\` until`],
    ]);
  });

  it("keeps a SAML IdP's certificate, an OIDC provider's method names, an HMAC keyed from the environment", () => {
    assertKeeps([
      '<ds:X509Certificate>MIICmlDkDjm1GGegetQbpZga/9afiMKyNN2xio+S0snyPXF81Gx0dHhX/2gux25GzRiS0eYla9tlwtrRZOA3EEsHqY3l5sHkO4O96</ds:X509Certificate>',
      '  "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "private_key_jwt"]',
      'expected = hmac.new(os.environ["WEBHOOK_SECRET"].encode(), body, hashlib.sha256).hexdigest()',
      'PASSWORD_HASHERS = ["django.contrib.auth.hashers.ScryptPasswordHasher"]',
    ]);
  });
});

describe('round 52: network devices, home automation, Windows administration, backups', () => {
  it('redacts them', () => {
    assertRedacts([
      ['mysqldump -u backup --password=Ncbk0030.ovhOw --single-transaction nextcloud', `mysqldump -u backup --password=${R('generic-assignment')} --single-transaction nextcloud`],
      ['pi@gw:~ $ cat privatekey\n9HK7WBlsOHoZ0TBudDSepGenNHZM+TTdwwZ/JbhOs+Y=', `pi@gw:~ $ cat privatekey\n${R('printed-secret')}`],
      ['sudo wg set wg0 private-key <(echo fu/QMdo+EWp0B0oiYOHVncEhtjrymJOys15/jyMP15/=) listen-port 51820', `sudo wg set wg0 private-key <(echo ${R('command-line-password')}) listen-port 51820`],
      ['agentAddress udp:161\nrocommunity txTUym4dUAr58z 10.0.0.0/24', `agentAddress udp:161\nrocommunity ${R('config-password')} 10.0.0.0/24`],
      ['$ snmpwalk -v2c -c Mon5556IPNf 192.168.1.1 ifDescr', `$ snmpwalk -v2c -c ${R('command-line-password')} 192.168.1.1 ifDescr`],
      ['curl -s -d \'{"id":1,"method":"login","params":["root","SdnHUBT97"]}\' http://192.168.1.1/cgi-bin/luci/rpc/auth', `curl -s -d '{"id":1,"method":"login","params":["root","${R('positional-password')}"]}' http://192.168.1.1/cgi-bin/luci/rpc/auth`],
      ['radius server ISE-01\n address ipv4 10.0.0.20 auth-port 1812 acct-port 1813\n key P8IXMrLfANnrxKhmkNr7LTdu', `radius server ISE-01\n address ipv4 10.0.0.20 auth-port 1812 acct-port 1813\n key ${R('config-password')}`],
      ['tacacs server TAC-01\n address ipv4 10.0.0.21\n key 0 TacexIni3OG5fOa5\n timeout 5', `tacacs server TAC-01\n address ipv4 10.0.0.21\n key 0 ${R('config-password')}\n timeout 5`],
      ['schtasks /Create /TN "NightlyBackup" /TR "C:\\Scripts\\backup.cmd" /SC DAILY /RU CORP\\svc_backup /RP SvcjxoTXT120!', `schtasks /Create /TN "NightlyBackup" /TR "C:\\Scripts\\backup.cmd" /SC DAILY /RU CORP\\svc_backup /RP ${R('command-line-password')}`],
      ['$ sudo cat /root/.restic-pw\nj8gKwldKEURg4VpKIG9of3quFRq4YPcp', `$ sudo cat /root/.restic-pw\n${R('printed-secret')}`],
      ['reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultPassword /t REG_SZ /d "KioskXygC3874" /f', `reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultPassword /t REG_SZ /d "${R('command-line-password')}" /f`],
      ['  Password:\n    928296-086097-123106-426257-937859-765239-833088-395415', `  Password:\n    ${R('bitlocker-recovery-password')}`],
      ['b2 account authorize 0025e8bf85ef0000000003 K002JvTbf2pJl6fM5STQuGv3dSnmRiA', `b2 account authorize 0025e8bf85ef0000000003 ${R('command-line-password')}`],
      ['curl -X POST -d \'{"text": "done"}\' https://chat.home.arpa/hooks/hIwlkoNITci3BxwT4Fn11HA5C6', `curl -X POST -d '{"text": "done"}' https://chat.home.arpa/hooks/${R('mattermost-webhook')}`],
      ['[stream]\n    enabled = yes\n    api key = f16f40a6-bf88-076b-fe85-97f716516640', `[stream]\n    enabled = yes\n    api key = ${R('config-password')}`],
      ['static const u1_t PROGMEM APPKEY[16] = { 0x66, 0x12, 0x08, 0x5d, 0x26, 0x33, 0x43, 0x2e, 0x77, 0x93, 0x2e, 0xec, 0xfa, 0xe1, 0xa3, 0x3d };', `static const u1_t PROGMEM APPKEY[16] = { ${R('config-password')} };`],
      ['    "key": "Qi2OChWCsFLz7GOS",\n    "ip": "192.168.1.77",', `    "key": "${R('generic-assignment')}",\n    "ip": "192.168.1.77",`],
      ['  securityKeys:\n    S2_AccessControl: cb5d7d66ab4fef1ccad9d5b0f6392d7b', `  securityKeys:\n    S2_AccessControl: ${R('config-password')}`],
      ["$ curl -s http://192.168.1.30/api/aDWyvkwNMXsL4apptmqHmE851WiysSxLG1l0VB3n/lights/3/state -X PUT -d '{\"on\":false}'", `$ curl -s http://192.168.1.30/api/${R('config-password')}/lights/3/state -X PUT -d '{"on":false}'`],
      ['racadm -r 10.0.9.22 -u root -p cWZxLk1288 getsysinfo', `racadm -r 10.0.9.22 -u root -p ${R('command-line-password')} getsysinfo`],
    ]);
  });

  it("keeps SNMP's default communities, a scheduled task that prompts, a DEVEUI, a public key file printed", () => {
    assertKeeps([
      'rocommunity public 127.0.0.1',
      '$ snmpwalk -v2c -c public 192.168.1.1 system',
      'schtasks /Create /TN "Nightly" /TR "C:\\backup.cmd" /SC DAILY /RU CORP\\svc_backup /RP *',
      'static const u1_t PROGMEM DEVEUI[8] = { 0x3d, 0xa3, 0xe1, 0xfa, 0xec, 0x2e, 0x93, 0x77 };',
      'pi@gw:~ $ cat publickey\n9HK7WBlsOHoZ0TBudDSepGenNHZM+TTdwwZ/JbhOs+Y=',
    ]);
  });
});

describe("round 53: a session cookie in a client's cookie dict, a passphrase of words unquoted in a .env file; kept: a passphrase read from elsewhere", () => {
  it('redacts them', () => {
    assertRedacts([
      ['requests.get(url, cookies={"sessionid": "qZxkYMxEIzaadBpIWEruLCk7cZclzvAb"})', `requests.get(url, cookies={"sessionid": "${R('session-cookie')}"})`],
      ['ENCRYPTION_PASSPHRASE=glass otter river 028 lantern\nrestic -r s3:s3.amazonaws.com/acme-backups backup /srv', `ENCRYPTION_PASSPHRASE=${R('generic-assignment')}\nrestic -r s3:s3.amazonaws.com/acme-backups backup /srv`],
    ]);
  });

  it('keeps a cookie dict without a session, a passphrase from the environment or a file', () => {
    assertKeeps([
      'requests.get(url, cookies={"theme": "dark", "locale": "en-GB-oxendict-x"})',
      'ENCRYPTION_PASSPHRASE=$(cat /run/secrets/passphrase)',
      'ENCRYPTION_PASSPHRASE=',
    ]);
  });
});

describe("round 54: Hinglish, a login told without code spans, an AWS key after Japanese, a remark in parentheses; kept: what is said not to be a secret", () => {
  it('redacts them', () => {
    assertRedacts([
      ['yaar prod server ka password Mumbai@2781 hai, ssh karke logs dekh le', `yaar prod server ka password ${R('prose-secret')} hai, ssh karke logs dekh le`],
      ['Login to the admin panel at https://admin.staging.acme.io with ops@acme.io / Crimson544Falcon and check the export job', `Login to the admin panel at https://admin.staging.acme.io with ops@acme.io / ${R('prose-secret')} and check the export job`],
      ['AWSのシークレットキー: plr/RnU9FWgd94e6ophDOWb0McJhtAW5jD6JV3KD\nリージョンは ap-northeast-1 です', `AWSのシークレットキー: ${R('prose-secret')}\nリージョンは ap-northeast-1 です`],
      ['Algolia admin API key (NOT the search-only one): 218e4b3a2a866c653905554698500593', `Algolia admin API key (NOT the search-only one): ${R('prose-secret')}`],
    ]);
  });

  it('keeps what is said not to be a secret, a login with its password left out, a path after a key\'s word', () => {
    assertKeeps([
      "Twilio Account SID (not secret, it's in every API URL): AC6586fc974b6491d362dbf96802bbd89e",
      'Login to the admin panel with ops@acme.io / <your password>',
      'APIキー: /etc/acme/keys/api.key を参照',
    ]);
  });
});

describe("round 56: less common languages' literals and tools", () => {
  it('redacts them', () => {
    assertRedacts([
      ['| env     | DB_HOST          | DB_PASS |\n|---------|------------------|---------|\n| staging | pg-stg.internal  | Staging973!Kelp |\n| prod    | (vault)          | (vault) |', `| env     | DB_HOST          | DB_PASS |\n|---------|------------------|---------|\n| staging | pg-stg.internal  | ${R('table-secret')} |\n| prod    | (vault)          | (vault) |`],
      ['system2("curl", c("-s", "-u", "rsconnect:mFOUAi5inXFVim2dJso8ckbbdaQ7zZjm", "https://connect.example.org/__api__/v1/content"), stdout = TRUE)', `system2("curl", c("-s", "-u", "rsconnect:${R('command-line-password')}", "https://connect.example.org/__api__/v1/content"), stdout = TRUE)`],
      ["curl_setopt($ch, CURLOPT_USERPWD, 'shopsync:Juniper604&Salt');", `curl_setopt($ch, CURLOPT_USERPWD, 'shopsync:${R('credential-pair')}');`],
      ['Start-Process -FilePath "C:\\mysql\\bin\\mysqldump.exe" -ArgumentList "-u", "root", "-pFalcon026Crest", "erp" -Wait', `Start-Process -FilePath "C:\\mysql\\bin\\mysqldump.exe" -ArgumentList "-u", "root", "-p${R('command-line-password')}", "erp" -Wait`],
      ['$ mix hex.user key generate --key-name ci\nGenerating key...\nSuccess! New key: 6ec38edf7ea497d8b9aa8ee58a331b66', `$ mix hex.user key generate --key-name ci\nGenerating key...\nSuccess! New key: ${R('prose-secret')}`],
      ['53426a1d3c316b63d5b36cba27061059\n^ new HEX_API_KEY for the org, please update it in the GitHub Actions secrets', `${R('prose-secret')}\n^ new HEX_API_KEY for the org, please update it in the GitHub Actions secrets`],
      // The value ending a longer line (found by the raw-bytes scan: a decision memory quotes it after a colon).
      ['We decided to keep it because it works: 53426a1d3c316b63d5b36cba27061059\r\n^ new HEX_API_KEY for the org', `We decided to keep it because it works: ${R('prose-secret')}\r\n^ new HEX_API_KEY for the org`],
      ['  secret_key: ~s(Nu6c9XZDi-xI1Pf0-ckGuvlH-0SdGXcr-NKTKzVZV3Nvs9lhwCI691CSE7vZSmia)', `  secret_key: ~s(${R('generic-assignment')})`],
      ['        "Key": "Q8mTNaAWAtG9Ku7X+buXlHBKHd+TL7chVDALtDD8lYD+"', `        "Key": "${R('generic-assignment')}"`],
      ['    password = [==[Lapis864]]Moon]==],', `    password = [==[${R('generic-assignment')}]==],`],
      ['let api_key = {|YB9Hs5gvXLEZ432bUuoYcqVffwRIygjHkA49owDg|}', `let api_key = {|${R('generic-assignment')}|}`],
      ["  password: '''Flutter684'Wing''',", `  password: '''${R('generic-assignment')}''',`],
      ["      DATA DBPASS /'Hydro1126Flux'/", `      DATA DBPASS /'${R('generic-assignment')}'/`],
      ['      "type": "random_password",\n      "instances": [\n        {\n          "attributes": {\n            "length": 24,\n            "result": "w4KvgtCQHq_i8KT-_oBec146",', `      "type": "random_password",\n      "instances": [\n        {\n          "attributes": {\n            "length": 24,\n            "result": "${R('generic-assignment')}",`],
      ['$ cat /var/lib/nix-serve/cache-priv-key.pem\ncache.acme.dev-1:P5sztGorqkHgAVTHNczPGmg/hCISHx3XaDLLYQQbAZKF6L7G47ZtRmOoZBiDthLivqY9RNTSb+LFmeUyq6qpB0==', `$ cat /var/lib/nix-serve/cache-priv-key.pem\n${R('printed-secret')}`],
      ["  passwordFile = \"${pkgs.writeText \"restic-pw\" ''Restic9593~Vault''}\";", `  passwordFile = "\${pkgs.writeText "restic-pw" ''${R('generic-assignment')}''}";`],
    ]);
  });

  it("keeps a table's notes, a DATA statement of a name, a random_string's result, an argument list with no password, Nix's empty strings", () => {
    assertKeeps([
      "      DATA DBHOST /'db.internal'/",
      '      "type": "random_string",\n      "attributes": {\n        "result": "bucket-suffix-x7k2"',
      'system2("git", c("log", "-1", "--format=%H"), stdout = TRUE)',
      "  description = ''A backup service'';",
      "  name = ''restic''",
    ]);
  });
});

describe("round 60: deploy hooks, an account told as user / password after is; kept: documentation's example secrets", () => {
  it('redacts them', () => {
    assertRedacts([
      ['curl -X POST https://api.vercel.com/v1/integrations/deploy/prj_SJtdr08Zsvk2J8J60f7hoRJ4HmdW/2fjhiEnjP6', `curl -X POST https://api.vercel.com/${R('vercel-deploy-hook')}`],
      ['Build hook for the docs site: https://api.netlify.com/build_hooks/0da8e43fbc015f80f4b860b8 (POST to rebuild)', `Build hook for the docs site: https://api.netlify.com/build_hooks/${R('netlify-build-hook')} (POST to rebuild)`],
      ["staging admin for the Strapi panel is admin@acme.io / Cardamom476! — please don't change it", `staging admin for the Strapi panel is admin@acme.io / ${R('prose-secret')}! — please don't change it`],
    ]);
  });

  it("keeps express-session's and iron-session's documented example secrets, an admin path", () => {
    assertKeeps([
      "app.use(session({ secret: 'keyboard cat', resave: false, saveUninitialized: true }))",
      "const session = await getIronSession(cookies(), { password: 'complex_password_at_least_32_characters_long', cookieName: 'myapp' });",
      'the admin panel is at /admin / see the runbook',
    ]);
  });
});

describe("round 58: text inside a transcript's JSON strings, an agent's sentences; kept: an .env.example written through JSON", () => {
  it('redacts them', () => {
    assertRedacts([
      ['{"name": "Write", "input": {"content": "#!/usr/bin/env bash\\nset -euo pipefail\\ncurl -sf -u \\"ops:r4bbit-A5BPlERBf0\\" \\"$RABBIT_URL/api/queues\\"\\n"}}', `{"name": "Write", "input": {"content": "#!/usr/bin/env bash\\nset -euo pipefail\\ncurl -sf -u \\"ops:${R('command-line-password')}\\" \\"$RABBIT_URL/api/queues\\"\\n"}}`],
      ['{"old_string": "<property name=\\"hibernate.connection.password\\"></property>", "new_string": "<property name=\\"hibernate.connection.password\\">Hib4821ernate#</property>"}', `{"old_string": "<property name=\\"hibernate.connection.password\\"></property>", "new_string": "<property name=\\"hibernate.connection.password\\">${R('xml-secret')}</property>"}`],
      ['I configured the `deploy` profile with the secret access key you provided (`RzR/1GgsSqEhxQFLkk350varuPLaevgrYMge0fys`) and verified it.', `I configured the \`deploy\` profile with the secret access key you provided (\`${R('prose-secret')}\`) and verified it.`],
      ['my keys: AKIAILZWVY0YKU7L5OWN / ITgq07g1yDkAn+mhVadrDGw9eqQIRmRqnMhA5dlP — please deploy', `my keys: ${R('aws-access-token')} / ${R('aws-secret-access-key')} — please deploy`],
      ['I reset the Grafana admin password with `grafana-cli admin reset-admin-password` — the new one is `Pelican6581#`. Log in.', `I reset the Grafana admin password with \`grafana-cli admin reset-admin-password\` — the new one is \`${R('prose-secret')}\`. Log in.`],
      ['Your API key (`S4tNzF7tGhJFovdDLgO8J0oln2OLZrlG`) is valid — the 429s are the rate limit.', `Your API key (\`${R('prose-secret')}\`) is valid — the 429s are the rate limit.`],
      ["curl -d @card.json 'https://prod-27.westeurope.logic.azure.com:443/workflows/d8ddb1fab1feaa1b3cff983f8c8d84a5/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=Hc9kQ2vXz7LmN4pR8tW1yB6dF3gJ5sA0eK2uO9iE7qZ'", `curl -d @card.json 'https://prod-27.westeurope.logic.azure.com:443/${R('azure-logic-app-url')}'`],
      ['put it in the Kamal secrets file: `0fd70e11078bbbbd20d60c7b36a4b22326ae6037e1f532ea498f7a314675cf0aa8c8d0186e77f68bbf9b1d6c4f5c8a0e2958912a6559fdc29d134b17e0851be8`.', `put it in the Kamal secrets file: \`${R('prose-secret')}\`.`],
    ]);
  });

  it('keeps an .env.example written through JSON, a PEM placeholder in JSON, a token named in a code span', () => {
    assertKeeps([
      '{"name": "Write", "input": {"file_path": "/home/dev/api/.env.example", "content": "# copy to .env and fill in\\nDB_HOST=localhost\\nDB_USER=app\\nDB_PASS=\\nOPENAI_API_KEY=<your-openai-key>\\n"}}',
      'GCP_SA={"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n"}',
      'the token is read from `process.env.GITHUB_TOKEN_FOR_CI`',
    ]);
  });
});

describe("round 59: PgBouncer's userlist shown unnamed; kept: nginx's auth_basic realm", () => {
  it('redacts it', () => {
    assertRedacts([
      ['"pgbouncer" "Bouncer126WFf"\n"app" "SCRAM-SHA-256$4096:h7b1EAM+CvPxn/JtsEtbP0Rg$rK5GcL6pxv2PrABuPrLcXnIhKMaNXT9KKeYIF2it3y+z:y1vdIdopv/55eySHUt2vYbSfHoCgEFP77eZ9+a78HRpu"', `"pgbouncer" "${R('config-password')}"\n"app" "${R('config-password')}"`],
      // Found by the raw-bytes scan: quoted after a colon in a decision's text.
      ['it works: "pgbouncer" "Bouncer126WFf"\n"app" "md5d41d8cd98f00b204e9800998ecf8427e"', `it works: "pgbouncer" "${R('config-password')}"\n"app" "${R('config-password')}"`],
      // And a command continued over lines beside a JSON string's escapes: each is its own reading.
      ['printf "a\\nb"\nnet use Z: \\\\fs01\\builds ^\n  /user:CONTOSO\\builder ^\n  vSiGL5NfVNcPPJ /persistent:no', `printf "a\\nb"\nnet use Z: \\\\fs01\\builds ^\n  /user:CONTOSO\\builder ^\n  ${R('command-line-password')} /persistent:no`],
    ]);
  });

  it("keeps nginx's realm, two quoted words on a line", () => {
    assertKeeps(['location /admin/ {\n    auth_basic "Restricted";\n    auth_basic_user_file /etc/nginx/.htpasswd;\n}', '"first" "second"']);
  });
});
