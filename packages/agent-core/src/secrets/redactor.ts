/**
 * One redactor for everything hermes stores, sends or logs: known secret values (from the environment
 * and `$HERMES_HOME/.env`) and key-shaped text (provider keys, bearer tokens, `Authorization:` values,
 * GitHub/AWS/Slack tokens, `api_key=…` assignments) become `[REDACTED]`, keeping a short prefix that
 * says what kind of secret was there. One precompiled regular expression, one pass over the text:
 * tool output can be megabytes. Every repetition is a single character class or bounded, so nothing
 * backtracks more than a constant per position.
 */

export const REDACTED = '[REDACTED]';

/** Shorter values are not treated as secrets: redacting `true` or `8080` everywhere would garble text. */
const MIN_SECRET_LENGTH = 8;

/**
 * Longer than any key: output cut inside a run of non-blanks up to this long loses the whole run, since
 * half a secret is not recognised (the redactor only knows secrets whole). Longer runs are cut as they are.
 */
export const SECRET_WORD_MAX = 512;

interface Shape {
  /** The part kept (a capturing group is added around it); must contain no capturing group itself. */
  keep: string;
  /** The secret after it. */
  value: string;
  /** Whether a match is really a secret (for loose shapes such as `token = …`). */
  accept?: (value: string) => boolean;
}

/** `process.env.OPENAI_API_KEY`, `os.environ`, `config.token2`: code that names a secret, not one. */
const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** An assigned value that looks like a credential: letters and digits, or long, and not code. */
function credentialLike(value: string): boolean {
  if (value.includes(REDACTED.slice(1, -1)) || /^\d+$/.test(value) || MEMBER_CHAIN.test(value)) return false;
  const mixed = /\d/.test(value) && /[A-Za-z]/.test(value);
  return mixed || (value.length >= 24 && !IDENTIFIER.test(value));
}

const SHAPES: Shape[] = [
  { keep: '-----BEGIN [A-Z ]{0,30}PRIVATE KEY-----', value: '[\\s\\S]*?-----END [A-Z ]{0,30}PRIVATE KEY-----' },
  // Header values first: the whole value goes, whatever scheme it names. Code that builds a header
  // (`Authorization: \`Bearer ${token}\``, `"Bearer " + key`) is no credential and stays readable.
  {
    keep: '\\b(?:proxy-)?(?:authorization|x-api-key|api-key|x-goog-api-key|x-auth-token)["\']?[ \\t]{0,4}[:=][ \\t]{0,4}["\']?',
    value: '(?:(?:bearer|basic|token|bot)[ \\t]+)?[A-Za-z0-9._~+/=:%-]{8,}',
    accept: (value) => credentialLike(value.replace(/^(?:bearer|basic|token|bot)[ \t]+/i, '')),
  },
  { keep: '\\bbearer[ \\t]+', value: '[A-Za-z0-9._~+/=-]{8,}', accept: credentialLike },
  { keep: '\\bsk-ant-', value: '[A-Za-z0-9_-]{16,}' },
  { keep: '\\bsk-', value: '(?:proj-|or-v1-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}' },
  { keep: '\\bgithub_pat_', value: '[A-Za-z0-9_]{20,}' },
  { keep: '\\bgh[pousr]_', value: '[A-Za-z0-9]{20,}' },
  { keep: '\\bglpat-', value: '[A-Za-z0-9_-]{20,}' },
  { keep: '\\b(?:AKIA|ASIA)', value: '[0-9A-Z]{16}\\b' },
  { keep: '\\bxox[abprs]-', value: '[A-Za-z0-9-]{10,}' },
  { keep: '\\bAIza', value: '[0-9A-Za-z_-]{35}' },
  // Credentials in a URL: `https://user:pass@host`, and in its query: `?key=…`, `&access_token=…`, `&sig=…`.
  { keep: '://[^/\\s:@]{1,64}:', value: '[^/\\s@{}$<>`]{3,256}(?=@)' },
  // The value stops before a parenthesis and does not end on punctuation: a URL in prose (`(…?key=…): why`) keeps its text.
  { keep: '[?&][A-Za-z0-9_.-]{0,24}(?:key|token|secret|passw(?:or)?d|sig|signature|auth|credential)=', value: '[^&\\s#"\'<>()]{7,}[^&\\s#"\'<>().,:;!?]', accept: credentialLike },
  {
    keep: '(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|access[_-]?key|private[_-]?key)[A-Za-z0-9_-]{0,20}["\']?[ \\t]{0,4}[:=][ \\t]{0,4}["\']?',
    value: '[A-Za-z0-9_+/=.~-]{8,}',
    accept: credentialLike,
  },
];

/**
 * A known value as text and as the encodings a command produces without thinking (`base64`, `xxd -p`,
 * `od`-free hex, `rev`): with them, `base64 -w0 ~/.hermes/.env` approved (or under --yolo) is no way
 * around the redactor. Base64 depends on where the value starts in the stream (three alignments): only
 * the characters that encode the value's own bytes whole are used, so the redacted run may leave a
 * character or two at its edges.
 */
function encodings(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out = [bytes.toString('hex'), [...value].reverse().join('')];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil(offset / 3) * 4;
    const end = Math.floor((offset + bytes.length) / 3) * 4;
    const whole = encoded.slice(first, end);
    if (whole.length >= MIN_SECRET_LENGTH) out.push(whole, whole.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The value, then its encodings; those may be wrapped anywhere (`base64` wraps at 76 columns, `xxd -p` at 60). */
function knownPatterns(value: string): { length: number; source: string }[] {
  const wrapped = (e: string) => [...e].map(escapeRegex).join('(?:\\r?\\n)?');
  return [{ length: value.length, source: escapeRegex(value) }, ...encodings(value).map((e) => ({ length: e.length, source: wrapped(e) }))];
}

export class Redactor {
  private readonly values: string[];
  private readonly all: RegExp;
  private readonly knownOnly: RegExp | null;

  /** `values`: secret values to remove wherever they appear (shorter than MIN_SECRET_LENGTH are ignored). */
  constructor(values: Iterable<string> = []) {
    const unique = new Set<string>();
    for (const v of values) if (typeof v === 'string' && v.trim().length >= MIN_SECRET_LENGTH) unique.add(v.trim());
    // Longest first, so a value that contains another is removed whole.
    this.values = [...unique].sort((a, b) => b.length - a.length);
    const known = [...new Set(this.values.flatMap(knownPatterns).sort((a, b) => b.length - a.length).map((p) => p.source))].join('|');
    this.knownOnly = known ? new RegExp(known, 'g') : null;
    const shapes = SHAPES.map((s) => `(${s.keep})${s.value}`).join('|');
    this.all = new RegExp(known ? `${known}|${shapes}` : shapes, 'gi');
  }

  /** The known values, longest first. */
  get knownValues(): readonly string[] {
    return this.values;
  }

  /** A redactor that also knows `more`. */
  with(more: Iterable<string>): Redactor {
    return new Redactor([...this.values, ...more]);
  }

  redact(text: string): string {
    if (text.length < 6) return text;
    this.all.lastIndex = 0;
    return text.replace(this.all, (match: string, ...groups: unknown[]) => {
      // Groups are one per shape, in order; none set means a known value matched.
      for (let i = 0; i < SHAPES.length; i += 1) {
        const keep = groups[i];
        if (typeof keep !== 'string') continue;
        const value = match.slice(keep.length);
        const accept = SHAPES[i]!.accept;
        if (accept && !accept(value)) return keep + this.redactKnown(value);
        return keep + REDACTED;
      }
      return REDACTED;
    });
  }

  /** Only the known values (for text a loose shape matched but judged not to be a secret). */
  private redactKnown(text: string): string {
    if (!this.knownOnly) return text;
    this.knownOnly.lastIndex = 0;
    return text.replace(this.knownOnly, REDACTED);
  }

  /** Redacts every string inside `value` (objects and arrays are copied only where something changed). */
  redactDeep<T>(value: T): T {
    return redactValue(value, (s) => this.redact(s), 0) as T;
  }
}

/** Deeper than any wire payload; a cycle or absurd nesting is left as it is rather than overflowing. */
const MAX_DEPTH = 64;

function redactValue(value: unknown, redact: (s: string) => string, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((item, i) => {
      const next = redactValue(item, redact, depth + 1);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  let copy: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const next = redactValue(item, redact, depth + 1);
    if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return copy ?? value;
}
