import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactSecrets } from '../../server/src/secrets/redact';
import { ALNUM, assertKeeps, assertRedacts, BASE64, HEX, secretDrawer, UPPER, URL_SAFE } from '../support/drawnSecrets';

/*
 * Forms held-out round 6 (Nosey Parker's rule examples and fresh cases) found no rule for, and
 * the look-alikes each new rule must leave: the edges of every rule, one case a line. Drawn
 * values come from a seeded generator, so no token-shaped literal sits in the source.
 */

const { drawn } = secretDrawer(0x5e16);

const uuid = () => `${drawn(HEX, 8)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 4)}-${drawn(HEX, 12)}`;

describe('round 6: placeholders and code under a secret key', () => {
  it('keeps what to write there, spelt out: YOUR…, my/your and a secret word, an HTML-escaped <…>', () => {
    assertKeeps(['"password": "YOURPASSWROD"', '"password": "&lt;YOURPASSWROD&gt;"', 'api_key = "YourApiKey"', 'psexec \\\\host -u admin -p mypass cmd']);
    // A value that only starts like one is a password.
    assertRedacts([['"password": "Yourmom1998!"', '"password": "[REDACTED:generic-assignment]"']]);
  });

  it('keeps a shell variable spliced between quotes, not a literal that holds quotes', () => {
    assertKeeps([`echo 'export DATABASE_PASSWORD="'$DEPLOY_PASSWORD'"' >> .env`, `echo 'DB_PASSWORD="'\${PG_PASS}'"'`]);
    assertRedacts([[`DB_PASSWORD="'Hx7th$Kb'"`, `DB_PASSWORD="[REDACTED:generic-assignment]"`]]);
  });

  it('keeps typed documentation values: letters and digits taking turns, a long count, a value that says it is none', () => {
    assertKeeps([
      ' --set global.licenseKey=a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8NRAL',
      ' --set pixie-chart.deployKey=px-dep-d4c3b2a1-f6e5-h8g7-j1i8-p5o0n5m3l2k1',
      "  PS> Get-NR1Catalog -PersonalAPIKey 'NRAK-123456788ABCDEFGHIJKLMNOPQR'",
      '// The password for the PKCS12 file is "notasecret".',
      'server->password = "busybox@";',
    ]);
    // Fifteen in turn, a count of seven, or an address with its domain: still a secret.
    const turns = 'a1b2c3d4e5f6g7h';
    assertRedacts([
      [`apiKey = "${turns}XQz9Lm"`, 'apiKey = "[REDACTED:generic-assignment]"'],
      ['password = "Kq81234567xZpW!"', 'password = "[REDACTED:generic-assignment]"'],
      ['password = "ops@acme-corp.io"', 'password = "[REDACTED:generic-assignment]"'],
    ]);
  });

  it('keeps routes, CSS selectors and host names named after a password', () => {
    assertKeeps([
      `  put '/forgot-password' => "cms/sites/passwords#update", as: 'update_password'`,
      'this.addPassword = "#add-password";',
      "$('.reset-password').hide(); resetPassword = '.reset-password';",
      "GOOGLE_OAUTH2_CLIENT_ID = '607830223128-4qgthc7ofdqce232dk690t5jgkm1ce33.apps.googleusercontent.com'",
    ]);
    // One dot is no host name; a `#` inside a value is a password's symbol.
    assertRedacts([
      ['password = "Kx81mq.io"', 'password = "[REDACTED:generic-assignment]"'],
      ['password = "#Hx7thKb9!"', 'password = "[REDACTED:generic-assignment]"'],
    ]);
  });

  it('keeps code between two literals and a label joined to a variable', () => {
    assertKeeps([
      'String usernamePassword = "application:" + appKey + ":" + appSecret;',
      'sb.append("MasterUserPassword: " + getMasterUserPassword() + ",");',
      `echo 'password = '.$p['config']['daemon_password']."\\n";`,
      'usernameLabel:"Username or email:",passwordLabel:"Password:",rememberMeLabel:"Remember me:"',
    ]);
    // A literal joined to another literal is one value, both parts of it; one with no separator at its end is a value.
    assertRedacts([
      ['password = "Hx7thKbF" + "!"', 'password = "[REDACTED:generic-assignment]"'],
      ['String pw; password = "Hx7thKbF9" + suffix;', 'String pw; password = "[REDACTED:generic-assignment]" + suffix;'],
    ]);
  });

  it('reads an unquoted word as a value on a .env line or under a user line, as code elsewhere', () => {
    assertRedacts([
      ['    REACT_APP_AUTH_PASSWORD=whiteduke    # some comment', '    REACT_APP_AUTH_PASSWORD=[REDACTED:generic-assignment]    # some comment'],
      ['export DB_PASSWORD=bluewhale', 'export DB_PASSWORD=[REDACTED:generic-assignment]'],
      ['user = Aladdin\npassword = open_sesame', 'user = Aladdin\npassword = [REDACTED:generic-assignment]'],
    ]);
    assertKeeps([
      'REACT_APP_MAILER_PASSWORD=smtp_password # Enter your SMTP email password',
      'config.password = open_sesame',
      'host = db\npassword = open_sesame',
      `x = 1; ${'y'.repeat(200)}; DB_PASSWORD=whiteduke`,
    ]);
  });
});

describe('round 6: generic forms', () => {
  it('finds operators aligned in a column and a table of dashes', () => {
    assertRedacts([
      [":password       => '4ian1234',", ":password       => '[REDACTED:generic-assignment]',"],
      ["  password        => 'thisismypassword',", "  password        => '[REDACTED:generic-assignment]',"],
      ['    Ldap password               ----   H7IKC85R#@4$', '    Ldap password               ----   [REDACTED:generic-assignment]'],
    ]);
    // Dashes with no space after, or under the word (a heading), are no separator.
    assertKeeps(['password ---- ', 'Password\n--------\nUse a long one.', 'password -----> next step']);
  });

  it('finds a password quoted after "is" in prose, not an unquoted word or a placeholder', () => {
    assertRedacts([
      [`echo "The password is 'Secret123'"`, `echo "The password is '[REDACTED:prose-secret]'"`],
      ['2. Ensure the password for user \'postgres\' is \'admin\' or change .env file.', "2. Ensure the password for user 'postgres' is '[REDACTED:prose-secret]' or change .env file."],
    ]);
    assertKeeps(['The password is required.', "The password is 'changeme' until you log in.", 'the password is "${PASSWORD}"', 'The password was "a b c"']);
  });

  it('finds a value between escaped single quotes, as between escaped double quotes', () => {
    const secret = drawn(HEX, 40);
    assertRedacts([
      [`'\\n  clientSecret: \\\\'${secret}\\\\','+`, `'\\n  clientSecret: \\\\'[REDACTED:generic-assignment]\\\\','+`],
      [`log("{\\'password\\': \\'Hx7thKbF9\\'}")`, `log("{\\'password\\': \\'[REDACTED:generic-assignment]\\'}")`],
    ]);
    assertKeeps([`msg = 'password: \\'\\''`]);
  });

  it('reads a quoted value past 1,000 characters: an AWS session token', () => {
    const token = `eyJ${drawn(URL_SAFE, 40)}.${drawn(URL_SAFE, 1050)}`;
    assert.equal(redactSecrets(`export AWS_SESSION_TOKEN="${token}"`).text, 'export AWS_SESSION_TOKEN="[REDACTED:generic-assignment]"');
  });

  it("finds a password as a URL's query parameter", () => {
    assertRedacts([['postgresql:///mydb?host=localhost&user=app&password=Hx7thKbF', 'postgresql:///mydb?host=localhost&user=app&password=[REDACTED:url-password]']]);
    assertKeeps(['postgresql:///mydb?user=app&password=${DB_PASSWORD}', 'GET /reset?next=password=1']);
  });
});

describe('round 6: positional passwords and command lines', () => {
  it("finds DirectoryEntry's password, in C# and PowerShell", () => {
    assertRedacts([
      ['new DirectoryEntry("LDAP://EXAMPLE.COM",\n  "ADMIN@EXAMPLE.COM",\n  "Rrhh1234");', 'new DirectoryEntry("LDAP://EXAMPLE.COM",\n  "ADMIN@EXAMPLE.COM",\n  "[REDACTED:positional-password]");'],
      ['$d = New-Object DirectoryServices.DirectoryEntry("LDAP://10.0.0.1","dom\\user", "Kx8!mq2Z")', '$d = New-Object DirectoryServices.DirectoryEntry("LDAP://10.0.0.1","dom\\user", "[REDACTED:positional-password]")'],
    ]);
    assertKeeps(['new DirectoryEntry(path, user, password);', 'new DirectoryEntry("LDAP://x", "u", "password");']);
  });

  it('takes 16 small letters in no word order for a drawn password, not a word', () => {
    assertRedacts([['new NetworkCredential("a@example.com", "vzihlaquknriqlht");', 'new NetworkCredential("a@example.com", "[REDACTED:positional-password]");']]);
    assertKeeps(['new NetworkCredential("a@example.com", "administrator");', 'new NetworkCredential("a@example.com", "aaaabbbbccccdddd");']);
  });

  it("finds PsExec's -p in any case, and setx's value by position", () => {
    assertRedacts([
      ['cmd.exe /C PSEXEC \\\\10.0.94.120 -u Administrator -p dev_admin CMD', 'cmd.exe /C PSEXEC \\\\10.0.94.120 -u Administrator -p [REDACTED:command-line-password] CMD'],
      ['C:\\> setx CLOUDFLARE_API_TOKEN -5yRlWhFehGS1abBu3vaozGA0rlGWxqkA', 'C:\\> setx CLOUDFLARE_API_TOKEN [REDACTED:command-line-password]'],
      ['setx DB_PASSWORD "Hx7th Kb!" /M', 'setx DB_PASSWORD "[REDACTED:command-line-password]" /M'],
    ]);
    assertKeeps(['setx PATH "%PATH%;C:\\tools"', 'setx API_TOKEN %API_TOKEN%', 'setx JAVA_HOME C:\\jdk']);
  });
});

describe('round 6: token shapes', () => {
  it('finds the new providers by their prefixes, at their lengths', () => {
    const cases: readonly (readonly [token: string, rule: string])[] = [
      [`aio_${drawn(ALNUM, 28)}`, 'adafruit-io-key'],
      [`AGE-SECRET-KEY-1${drawn(UPPER, 58)}`, 'age-secret-key'],
      [`cio${drawn(ALNUM, 32)}`, 'cratesio-api-token'],
      [`odt_${drawn(ALNUM, 32)}`, 'dependency-track-api-key'],
      [`oy2${drawn(HEX, 43)}`, 'nuget-api-key'],
      [`sgp_${drawn(HEX, 16)}_${drawn(HEX, 40)}`, 'sourcegraph-token'],
      [`tvly-${drawn(ALNUM, 32)}`, 'tavily-api-key'],
      [`eu01xx${drawn(HEX, 30)}NRAL`, 'new-relic-key'],
      [`${drawn(HEX, 36)}NRAL`, 'new-relic-key'],
      [`00DE0X0A0M0PeLE!${drawn(ALNUM, 60)}.${drawn(ALNUM, 35)}`, 'salesforce-access-token'],
      [`AKIAN1FO${drawn(UPPER, 12)}`, 'aws-access-token'],
      [`${'2462241548'}:AA${drawn(URL_SAFE, 32)}`, 'telegram-bot-api-token'],
    ];
    for (const [token, rule] of cases) assert.equal(redactSecrets(`note: ${token} here`).text, `note: [REDACTED:${rule}] here`, token);
  });

  it('leaves the same prefixes one character short, inside a word, or filled in', () => {
    assertKeeps([
      `aio_${drawn(ALNUM, 27)}`,
      `Xcio${drawn(ALNUM, 32)}`,
      `tvly-${'x'.repeat(32)}`,
      `odt_${drawn(ALNUM, 31)}`,
      `sgp_${drawn(HEX, 39)}`,
      // A documentation value that says EXAMPLE more than once.
      '00DE0X0A0M0PeLE!AQcAQH0dMHEXAMPLEzmpkb58urFRkgeBGsxL_QJWwYMfAbUeeG7c1EXAMPLEDUkWe6H34r1AAwOR8B8fLEz6nEXAMPLEAAAA',
    ]);
  });

  it('finds URL tokens of Teams and ThingsBoard, and Okta and SonarQube tokens after their names', () => {
    const teams = `${drawn(HEX, 32)}/${uuid()}`;
    const tb = drawn(HEX, 20);
    const okta = `00${drawn(URL_SAFE, 40)}`;
    const sonar = drawn(HEX, 40);
    const ids = `${uuid()}@${uuid()}/JenkinsCI/`;
    const hook = 'https://outlook.office.com/webhook/';
    assertRedacts([
      [`webhookUrl: '${hook}${ids}${teams}'`, `webhookUrl: '${hook}[REDACTED:teams-webhook-url]'`],
      [`https://thingsboard.cloud/api/v1/${tb}/telemetry`, 'https://thingsboard.cloud/api/v1/[REDACTED:thingsboard-access-token]/telemetry'],
      [`Authorization: SSWS ${okta}`, 'Authorization: SSWS [REDACTED:okta-api-token]'],
      [`$sonarLogin = "${sonar}"`, '$sonarLogin = "[REDACTED:sonarqube-token]"'],
    ]);
    // Another API's path, a word after SSWS, a short sonar login.
    assertKeeps(['GET /api/v1/users/telemetry', 'curl https://tb.acme.io/api/v1/ABCDEFGHIJ0123456789/status', 'SSWS is the scheme Okta uses', 'sonar.login=admin']);
  });

  it('finds a PEM private key in base64, not a certificate', () => {
    const body = drawn(BASE64, 400);
    const key = `${Buffer.from('-----BEGIN RSA PRIVATE KEY-----\n').toString('base64').replace(/=+$/, '')}${body}`;
    const openssh = `${Buffer.from('-----BEGIN OPENSSH PRIVATE KEY-----\n').toString('base64')}${body}`;
    const certificate = `${Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64').replace(/=+$/, '')}${body}`;
    assert.equal(redactSecrets(`TLS_KEY_B64=${key}`).text, 'TLS_KEY_B64=[REDACTED:private-key]');
    assert.equal(redactSecrets(`  tls.key: ${openssh}`).text, '  tls.key: [REDACTED:private-key]');
    assertKeeps([`  certificate-authority-data: ${certificate}`]);
  });
});
