import type { FoundSecret } from './secretRules';
import { isPlaceholderValue } from './secretValues';

/**
 * The password of a WordPress or blogging XML-RPC call, given by position among its params:
 * `wp.getUsersBlogs(username, password)`; `wp.*`, `metaWeblog.*`, `blogger.*` and `mt.*` take
 * something first (a blog, an app key, a post) and then the user and the password. These are the
 * calls a brute force against `xmlrpc.php` sends, and a firewall's audit log keeps their bodies.
 */
const METHOD_NAME = /<methodName>\s{0,20}((?:wp|metaWeblog|blogger|mt)\.[A-Za-z]{1,60})\s{0,20}<\/methodName>\s{0,20}<params>/dg;
const MAX_PARAMS = 4000;
const PARAM = /<param>\s{0,20}<value>\s{0,20}(?:<(string|int|i4)>([^<]{0,1000})<\/\1>|([^<]{0,1000}))\s{0,20}<\/value>\s{0,20}<\/param>/dg;

export const XML_RPC_KEYWORDS = ['<methodname>'];

export function findXmlRpcPasswords(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  // The next `</params>`, found once and kept while calls come before it: a search from each call would be quadratic.
  let close = -1;
  METHOD_NAME.lastIndex = 0;
  for (let call = METHOD_NAME.exec(text); call; call = METHOD_NAME.exec(text)) {
    const paramsStart = call.index + call[0].length;
    if (close < paramsStart) close = text.indexOf('</params>', paramsStart);
    if (close < 0) break;
    if (close - paramsStart > MAX_PARAMS) continue;
    const params = text.slice(paramsStart, close);
    const position = call[1] === 'wp.getUsersBlogs' ? 1 : 2;
    PARAM.lastIndex = 0;
    for (let index = 0, param = PARAM.exec(params); param; index++, param = PARAM.exec(params)) {
      if (index < position) continue;
      const group = param[2] !== undefined ? 2 : 3;
      const value = param[group]!.trim();
      if (value.length > 0 && !isPlaceholderValue(value)) {
        const start = paramsStart + param.indices![group]![0] + param[group]!.indexOf(value);
        found.push({ start, end: start + value.length });
      }
      break;
    }
  }
  return found;
}
