import { describe, it } from 'node:test';
import { assertKeeps, assertRedacts } from '../support/drawnSecrets';

/*
 * Forms held-out rounds 45 to 60 found no rule for, and the look-alikes each new rule must leave:
 * the edges of every rule, one case a line (redactionRound12Forms.test.ts has rounds 12 to 44).
 */

const R = (rule: string) => `[REDACTED:${rule}]`;

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
      // Found by the raw-bytes scan: a decision memory quotes it after a colon.
      ['We decided to keep it because it works: ENCRYPTION_PASSPHRASE=glass otter river 028 lantern\nrestic backup /srv', `We decided to keep it because it works: ENCRYPTION_PASSPHRASE=${R('generic-assignment')}\nrestic backup /srv`],
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
