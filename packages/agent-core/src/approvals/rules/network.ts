/**
 * Network clients: requests to a cloud metadata endpoint (instance credentials), however the address
 * is spelled, but only in the URL and host arguments of the clients themselves (and in `/dev/tcp`
 * redirects, see `metadataRedirect`); requests that delete a search index; and clients that hand a
 * shell to the other end (`nc -e /bin/sh`, `socat TCP:… EXEC:bash`).
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { optValues, parseOptions, type OptionSpec, type ParsedOptions } from '../options.ts';
import { register } from '../programRules.ts';
import { display, lit, literal, type WordValue } from '../words.ts';

/** An argument's text; an unmatched glob (`http://[fd00:ec2::254]/`) reaches the program as written. */
const text = (w: WordValue | undefined) => (w ? literal(w) ?? (w.pieces.some((p) => p.kind === 'unknown') ? '' : display(w)) : '');

// ── addresses ──

/** IPv4 as inet_aton reads it: one to four parts, each decimal, octal (`0251`) or hex (`0xa9`). */
function inetAton(host: string): number | null {
  const parts = host.split('.');
  if (parts.length > 4 || !parts.every((p) => /^(?:0x[0-9a-f]*|0[0-7]*|[1-9]\d*)$/i.test(p))) return null;
  const nums = parts.map((p) => (/^0x/i.test(p) ? parseInt(p.slice(2) || '0', 16) : /^0./.test(p) ? parseInt(p, 8) : parseInt(p, 10)));
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 2 ** (8 * (4 - nums.length))) return null;
  return nums.reduce((sum, n, i) => sum + n * 2 ** (8 * (3 - i)), 0) + last;
}

/** IPv6 as eight 16-bit groups (an embedded dotted IPv4 tail allowed), or null. */
function ipv6(host: string): number[] | null {
  let h = host.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (v4) {
    const n = inetAton(v4[1]!);
    if (n === null) return null;
    h = `${h.slice(0, h.length - v4[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = h.split('::');
  if (halves.length > 2) return null;
  const groups = halves.map((half) => (half ? half.split(':') : []));
  if (![...groups[0]!, ...(groups[1] ?? [])].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const fill = 8 - groups[0]!.length - (groups[1]?.length ?? 0);
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  return [...groups[0]!, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...(groups[1] ?? [])].map((g) => parseInt(g, 16));
}

const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '169.254.170.23', '100.100.100.200'].map((a) => inetAton(a)!));
const METADATA_V6 = new Set(['fd00:ec2::254', 'fd00:ec2::23'].map((a) => ipv6(a)!.join(':')));
const METADATA_NAMES = /^(?:metadata|metadata\.google\.internal|metadata\.goog|instance-data|instance-data\.ec2\.internal|metadata\.tencentyun\.com|metadata\.platformequinix\.com)$/;
/** Wildcard DNS that resolves to the address written in the name (`169.254.169.254.nip.io`, `a9fea9fe.sslip.io`). */
const WILDCARD_DNS = /^(?:(.*)[.-])?(\d+[.-]\d+[.-]\d+[.-]\d+|[0-9a-f]{8})\.(?:nip\.io|sslip\.io|xip\.io|traefik\.me)$/;

/** The host names a cloud metadata service, in any spelling. */
export function isMetadataHost(raw: string): boolean {
  let host = raw.toLowerCase().replace(/\.+$/, '');
  try {
    host = decodeURIComponent(host);
  } catch {
    // Not percent-encoded: as written.
  }
  if (METADATA_NAMES.test(host)) return true;
  if (host.includes(':')) {
    const g = ipv6(host);
    if (!g) return false;
    if (METADATA_V6.has(g.join(':'))) return true;
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), SIIT (::ffff:0:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
    const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
    const embedded = (zero(0, 5) && (g[5] === 0xffff || g[5] === 0)) || (zero(0, 4) && g[4] === 0xffff && g[5] === 0) || (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6));
    return embedded && METADATA_V4.has(g[6]! * 0x10000 + g[7]!);
  }
  const v4 = inetAton(host);
  if (v4 !== null) return METADATA_V4.has(v4);
  const wildcard = WILDCARD_DNS.exec(host);
  if (!wildcard) return false;
  const embedded = wildcard[2]!;
  return METADATA_V4.has(/^[0-9a-f]{8}$/.test(embedded) ? parseInt(embedded, 16) : inetAton(embedded.replace(/-/g, '.')) ?? -1);
}

/**
 * Every host a URL argument may request, up to a limit: curl's URL globbing (`{a,b}`, `[1-9]`,
 * `[a-z]`) and the brace sequences bash expands before curl sees them (`{250..254}`, `{a..c}`).
 */
function expandGlobs(host: string, limit = 512): string[] {
  // Each group multiplies the hosts: past the limit, stop expanding (the first `limit` are judged).
  if ((host.match(/[{[]/g)?.length ?? 0) > 9) return [host];
  const m = /\{(-?\d+)\.\.(-?\d+)(?:\.\.-?\d+)?\}|\{([a-z])\.\.([a-z])\}|\{([^{}]*)\}|\[(\d+)-(\d+)(?::\d+)?\]|\[([a-z])-([a-z])(?::\d+)?\]/i.exec(host);
  if (!m) return [host];
  const range = (from: number, to: number, show: (n: number) => string) =>
    Array.from({ length: Math.min(Math.abs(to - from) + 1, limit) }, (_, i) => show(from + (to >= from ? i : -i)));
  const alternatives =
    m[5] !== undefined ? m[5].split(',')
    : m[1] !== undefined ? range(+m[1], +m[2]!, String)
    : m[6] !== undefined ? range(+m[6], +m[7]!, String)
    : range((m[3] ?? m[8])!.charCodeAt(0), (m[4] ?? m[9])!.charCodeAt(0), (n) => String.fromCharCode(n));
  return alternatives.flatMap((a) => expandGlobs(host.slice(0, m.index) + a + host.slice(m.index + m[0].length), limit)).slice(0, limit);
}

/** The host of a URL, or of a scheme-less `host[:port][/path]` as curl and wget accept it. */
export function urlHost(url: string): string {
  const rest = url.trim().replace(/^[a-z][a-z0-9+.-]*:[/\\]+/i, '');
  const authority = rest.split(/[/?#\\]/)[0]!;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:[^:]*$/, (port) => (host.split(':').length > 2 ? port : ''));
}

function metadata(addresses: string[], inv: Invocation, j: Judgement): void {
  const hit = addresses.find((a) => a && a !== '\u0000' && expandGlobs(urlHost(a)).some(isMetadataHost));
  if (hit) j.add('dangerous', 'network.metadata', 'metadata endpoint', `${inv.name} ${hit} reaches the cloud metadata endpoint (instance credentials)`);
}

/**
 * A redirect to `/dev/tcp/HOST/PORT` (or udp) naming a metadata host: bash opens that connection
 * itself (`cat < /dev/tcp/169.254.169.254/80`, `exec 3<>/dev/tcp/…`). For the engine to call on every
 * redirect target, input or output.
 */
export function metadataRedirect(target: WordValue, j: Judgement): void {
  const host = /^\/dev\/(?:tcp|udp)\/([^/]+)(?:\/|$)/.exec(display(target))?.[1];
  if (host && expandGlobs(host).some(isMetadataHost)) {
    j.add('dangerous', 'network.metadata', 'metadata endpoint', `a redirect to ${display(target)} reaches the cloud metadata endpoint (instance credentials)`);
  }
}

// ── HTTP requests that delete a search index ──

const METHODS = /^(?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/i;
/** Elasticsearch and OpenSearch (self-hosted and Elastic Cloud): a path of one index name is the whole index. */
const SEARCH_PORT = /:(?:9200|9243)$/;

/**
 * `DELETE …/_all` or `…/*` (every index), `DELETE …:9200/INDEX` (a whole index), and
 * `_delete_by_query` matching everything: a search cluster's data, gone in one request.
 */
function searchDelete(parsed: ParsedOptions, operands: string[], inv: Invocation, j: Judgement): void {
  const httpie = /^(?:https?|xhs?|httpie)$/.test(inv.name);
  const named = httpie && METHODS.test(operands[0] ?? '') ? operands[0]!.toUpperCase() : null;
  const method = named ?? (optValues(parsed, 'X', 'request', 'method').pop() ?? 'GET').toUpperCase();
  const urls = [...(named ? operands.slice(1, 2) : httpie ? operands.slice(0, 1) : operands), ...optValues(parsed, 'url')];
  const request = [...optValues(parsed, 'd', 'data', 'data-raw', 'data-binary', 'json', 'body-data', 'post-data'), ...operands].join(' ');
  for (const url of urls) {
    const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
    const cut = rest.search(/[/?#]/);
    const host = cut < 0 ? rest : rest.slice(0, cut);
    const segments = (cut < 0 ? '' : rest.slice(cut)).split(/[?#]/)[0]!.split('/').filter(Boolean);
    const every = segments.some((s) => s === '_all' || s.includes('*'));
    const index = SEARCH_PORT.test(host) && segments.length === 1 && !segments[0]!.startsWith('_');
    const byQuery = segments.includes('_delete_by_query') && (/match_all/.test(request) || request.trim() === url.trim());
    if ((method === 'DELETE' && (every || index)) || byQuery) {
      j.add('dangerous', 'search.delete', 'search index', `${inv.name} ${method} ${url} deletes ${every || byQuery ? 'every document or index it matches' : 'a whole index'}`);
      return;
    }
  }
}

// ── clients and the arguments that are addresses ──

const CURL: OptionSpec = {
  short: '#0123456aBfGgIiJjkLlMNnOpqRsSvVZA:b:c:C:d:D:e:E:F:H:K:m:o:P:Q:r:T:t:u:U:w:x:X:y:Y:z:',
  long: ['url=', 'proxy=', 'preproxy=', 'resolve=', 'connect-to=', 'output=', 'output-dir=', 'data=', 'data-raw=', 'data-binary=', 'data-urlencode=', 'data-ascii=', 'json=', 'form=', 'form-string=', 'header=', 'proxy-header=', 'user-agent=', 'user=', 'proxy-user=', 'request=', 'referer=', 'cookie=', 'cookie-jar=', 'config=', 'dump-header=', 'max-time=', 'connect-timeout=', 'retry=', 'retry-delay=', 'retry-max-time=', 'max-redirs=', 'cacert=', 'capath=', 'cert=', 'key=', 'cert-type=', 'key-type=', 'pass=', 'write-out=', 'range=', 'limit-rate=', 'max-filesize=', 'interface=', 'local-port=', 'dns-servers=', 'doh-url=', 'socks4=', 'socks4a=', 'socks5=', 'socks5-hostname=', 'upload-file=', 'trace=', 'trace-ascii=', 'stderr=', 'time-cond=', 'variable=', 'oauth2-bearer=', 'aws-sigv4=', 'unix-socket=', 'abstract-unix-socket=', 'noproxy=', 'proto=', 'proto-redir=', 'proto-default=', 'ciphers=', 'url-query=', 'alt-svc=', 'hsts=', 'etag-save=', 'etag-compare=', 'rate=', 'parallel-max=', 'expect100-timeout=', 'keepalive-time='],
};
const WGET: OptionSpec = {
  short: 'bcdFhkKmNpqrSvxEHLn46O:o:a:P:i:t:T:w:Q:e:l:A:R:D:I:X:U:B:',
  long: ['output-document=', 'output-file=', 'append-output=', 'directory-prefix=', 'input-file=', 'execute=', 'user-agent=', 'header=', 'post-data=', 'post-file=', 'body-data=', 'body-file=', 'method=', 'config=', 'tries=', 'timeout=', 'wait=', 'user=', 'password=', 'http-user=', 'http-password=', 'load-cookies=', 'save-cookies=', 'referer=', 'level=', 'accept=', 'reject=', 'domains=', 'base=', 'bind-address=', 'ca-certificate=', 'certificate=', 'private-key='],
};
const HTTPIE: OptionSpec = {
  short: 'a:A:o:s:p:vhbjfFdcSIx',
  long: ['auth=', 'auth-type=', 'output=', 'session=', 'session-read-only=', 'verify=', 'cert=', 'cert-key=', 'cert-key-pass=', 'proxy=', 'timeout=', 'max-redirects=', 'pretty=', 'style=', 'print=', 'format-options=', 'response-charset=', 'response-mime=', 'ssl=', 'ciphers=', 'default-scheme=', 'raw='],
};
const NC: OptionSpec = {
  short: '46bCDdFhklNnrStUuvZzI:i:M:m:O:P:p:q:s:T:V:W:w:X:x:e:c:g:G:',
  long: ['exec=', 'sh-exec=', 'lua-exec=', 'listen', 'keep-open', 'source=', 'source-port=', 'proxy=', 'proxy-type=', 'proxy-auth=', 'wait=', 'idle-timeout=', 'output=', 'hex-dump=', 'allow=', 'allowfile=', 'deny=', 'denyfile=', 'max-conns=', 'send-only', 'recv-only', 'udp', 'sctp', 'ssl', 'verbose', 'nodns', 'crlf', 'broker', 'chat'],
};

/** Per client: its options, and the addresses among them (operands first). */
const CLIENTS: [string[], OptionSpec, (p: ParsedOptions) => string[]][] = [
  [['curl', 'curlie'], CURL, (p) => [...optValues(p, 'url', 'x', 'proxy', 'preproxy'), ...optValues(p, 'resolve').flatMap((r) => r.split(':').slice(2).join(':').split(',')), ...optValues(p, 'connect-to').map((c) => c.split(':').slice(2).join(':'))]],
  [['wget', 'wget2'], WGET, () => []],
  [['http', 'https', 'xh', 'xhs', 'httpie'], HTTPIE, (p) => optValues(p, 'proxy').map((v) => v.slice(v.indexOf(':') + 1))],
  [['aria2c'], { short: 'd:o:i:l:x:s:j:k:t:m:' }, () => []],
  [['lynx', 'links', 'elinks', 'w3m', 'lwp-request', 'get', 'websocat', 'fetch', 'ftp', 'tftp'], { singleDashLong: true }, () => []],
  [['nc', 'ncat', 'netcat'], NC, (p) => optValues(p, 'x', 'proxy')],
  [['telnet'], { short: '78EFKLacdfrxl:e:n:b:X:k:' }, () => []],
];

for (const [names, spec, extra] of CLIENTS) {
  register(names, (inv, j) => {
    const parsed = parseOptions(inv.args, spec);
    const operands = parsed.operands.map(text);
    // nc and telnet take `host port`; httpie `[METHOD] URL items…`; the others a list of URLs.
    const addresses = /^(?:nc|ncat|netcat|telnet)$/.test(inv.name) ? operands.slice(0, 1) : /^(?:https?|xhs?|httpie)$/.test(inv.name) ? operands.slice(0, 2) : operands;
    metadata([...addresses, ...extra(parsed)], inv, j);
    if (spec === NC) remoteShell(parsed, inv, j);
    else searchDelete(parsed, operands, inv, j);
  });
}

/** `nc -e PROGRAM`, `nc -c CMD`, `ncat --exec/--sh-exec/--lua-exec`: the connection drives a program. */
function remoteShell(parsed: ParsedOptions, inv: Invocation, j: Judgement): void {
  const programs = optValues(parsed, 'e', 'exec');
  const shells = optValues(parsed, 'c', 'sh-exec');
  const lua = optValues(parsed, 'lua-exec');
  if (!programs.length && !shells.length && !lua.length) return;
  j.add('dangerous', 'network.remote-shell', 'network', `${inv.name} ${[...programs, ...shells, ...lua][0]} gives whoever is at the other end of the connection a program to drive`);
  for (const p of programs) if (p !== '\u0000') j.command(p.split(/\s+/).map((w) => lit(w)), inv, inv.name);
  for (const s of shells) if (s !== '\u0000') j.code(s, inv);
}

// ── socat ──

const SOCAT: OptionSpec = { short: 'dvxhuUg46b:t:T:L:W:', long: ['lf=', 'ls', 'lm', 'lp=', 'lu', 'lh', 'hh', 'hhh', 'dd', 'ddd', 'dddd', 'lmlocal2', 'statistics', 'experimental'], singleDashLong: true };
const LOCAL_ADDRESS = /^(?:-|stdio|stdin|stdout|stderr|file|open|create|gopen|pipe|pty|fd|exec|system|readline|tun|named)(?::|,|$)/i;
/** Address types whose fields after the type are hosts (`TCP:host:port`, `SOCKS4:proxy:host:port`). */
const HOST_FIELDS: [RegExp, number[]][] = [
  [/^(?:tcp[46]?|tcp-connect|udp[46]?|udp-connect|udp-sendto|sctp[46]?|sctp-connect|openssl|openssl-connect|ssl|dtls|openssl-dtls-client)$/i, [1]],
  [/^(?:socks[45]a?|socks|proxy|proxy-connect)$/i, [1, 2]],
];

register(['socat'], (inv, j) => {
  const addresses = parseOptions(inv.args, SOCAT).operands.map(text).slice(0, 2);
  const hosts = addresses.flatMap((a) => {
    const fields = a.split(',')[0]!.match(/\[[^\]]*\]|[^:]+/g) ?? [];
    return HOST_FIELDS.find(([re]) => re.test(fields[0] ?? ''))?.[1].map((i) => fields[i] ?? '') ?? [];
  });
  metadata(hosts, inv, j);
  const runs = addresses.map((a) => /^(exec|system):(.*)$/is.exec(a)).find(Boolean);
  if (!runs) return;
  // socat ends the command at the first `,` (its own options: `EXEC:bash -li,pty,stderr`).
  const command = runs[2]!.split(',')[0]!;
  if (addresses.some((a) => !LOCAL_ADDRESS.test(a))) j.add('dangerous', 'network.remote-shell', 'network', `socat ${runs[1]}:${command} runs a program driven by a network connection`);
  j.code(command, inv, runs[1]!.toLowerCase() === 'system');
});

register(['openssl'], (inv, j) => {
  if (text(inv.args[0]) !== 's_client') return;
  const parsed = parseOptions(inv.args.slice(1), { long: ['connect=', 'host=', 'proxy='], singleDashLong: true });
  metadata(optValues(parsed, 'connect', 'host', 'proxy'), inv, j);
});
