/**
 * Wildcard matching of PS3.4 C.2.2.2.4: `*` matches any run of characters (none included), `?` exactly one. A
 * translation into a regular expression backtracks, so each extra `*` multiplies the time against a long value; this
 * walks value and pattern once, going back only to the last `*` seen (at most value × pattern steps, whatever the
 * number of stars).
 */
export function wildcardMatches(value: string, pattern: string, ignoreCase = false): boolean {
  const v = ignoreCase ? value.toLowerCase() : value;
  const p = ignoreCase ? pattern.toLowerCase() : pattern;
  let vi = 0;
  let pi = 0;
  /** Where the last `*` is in the pattern, and the value position it has matched up to. */
  let star = -1;
  let starFrom = 0;
  while (vi < v.length) {
    if (pi < p.length && (p[pi] === '?' || (p[pi] !== '*' && p[pi] === v[vi]))) {
      vi++;
      pi++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      starFrom = vi;
    } else if (star >= 0) {
      // The last star takes one more character, and the rest of the pattern is tried from there.
      pi = star + 1;
      vi = ++starFrom;
    } else return false;
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}
