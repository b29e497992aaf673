import { isQuote, PAIR_VALUE, sticky, type Form } from './keyedFormParts';

/** The forms of a value under a key name in XML: an element's text, a `value` attribute, a sibling element. */
export const XML_FORMS: readonly Form[] = [
  // `<password>…</password>`, `<db:apiToken>…</db:apiToken>`, `<password><![CDATA[…]]></password>`.
  {
    rule: 'xml-secret',
    around: (n) => n.text[n.start - 1] === '<' || n.text[n.start - 1] === ':',
    before: /<(?:[\w.-]{1,40}:)?$/,
    // Windows' unattend.xml nests it: `<AdministratorPassword><Value>…</Value>`.
    after: sticky(`(?:\\s[^<>]{0,200})?>(?:<!\\[CDATA\\[((?:[^\\]]|\\](?!\\]>)){1,1000})\\]\\]></|\\s{0,40}<[Vv]alue>([^<]{1,1000})</[Vv]alue>|([^<]{1,1000})</)`),
    from: 'name',
  },
  // An element holding it in a `value` attribute: log4net's `<password value="…" />`.
  {
    rule: 'xml-secret',
    around: (n) => n.text[n.start - 1] === '<' && (n.text[n.end] === ' ' || n.text[n.end] === '\t'),
    before: /<$/,
    after: sticky(`[ \\t]{1,20}value=(?:${PAIR_VALUE})`),
    from: 'name',
  },
  // Jenkins' job parameter: `<name>DEPLOY_PASS</name>`, then its `<defaultValue>…</defaultValue>` among its siblings;
  // a parameter list's `<Name>ftpPassword</Name>` then `<Value>…</Value>`.
  {
    rule: 'xml-secret',
    around: (n) => n.text[n.start - 1] === '>',
    before: /<[Nn]ame>$/,
    after: sticky(`</[Nn]ame>(?:\\s{0,40}<[\\w.-]{1,40}>[^<]{0,300}</[\\w.-]{1,40}>){0,4}\\s{0,40}(?:<defaultValue>([^<]{1,1000})</defaultValue>|<[Vv]alue>([^<]{1,1000})</[Vv]alue>)`),
    from: 'name',
  },
  // A property list's `<key>AlgoliaAdminAPIKey</key>` then `<string>…</string>`; KeePass' export,
  // `<Key>Password</Key><Value ProtectInMemory="True">…</Value>`.
  {
    rule: 'xml-secret',
    around: (n) => n.text[n.start - 1] === '>',
    before: /<[Kk]ey>$/,
    after: sticky(`</[Kk]ey>\\s{0,40}(?:<string>([^<]{1,1000})</string>|<Value(?:\\s[^<>]{0,200})?>([^<]{1,1000})</Value>)`),
    from: 'name',
  },
  // `<add key="DbPassword" value="…"/>`, `<entry key="jdbc.password">…</entry>`, `<property name="password">…`,
  // and .NET settings' nested value: `<setting name="SmtpPassword" serializeAs="String"><value>…</value>`.
  {
    rule: 'xml-secret',
    around: (n) => isQuote(n.text[n.start - 1]) || n.text[n.start - 1] === ':',
    // The name may have a prefix: `<add key="ida:ClientSecret" value="…"/>`.
    // WiX names it by `Id` and gives a `Value`: `<Property Id="SQLPASSWORD" Value="…" />`.
    before: /(?<![\w-])(?:key|name|[Ii]d|ID)=["'](?:[\w.-]{1,40}:)?$/,
    // The element's text on one line (an `<input name="password">` has none: what follows it is not its value).
    after: sticky(`["'](?:\\s{1,20}[Vv]alue=(?:${PAIR_VALUE})|[^<>]{0,200}(?<!/)>(?:\\s{0,40}<value>([^<]{1,1000})</value>|[ \\t]{0,40}\\r?\\n?[ \\t]{0,40}([^<\\s](?:[^<\\r\\n]{0,998}[^<\\s])?)[ \\t]{0,40}\\r?\\n?[ \\t]{0,40}<))`),
    from: 'name',
  },
];
