/**
 * Redaction of text that arrives in pieces. Each frame is redacted on its way out, but a key the model
 * streams across two frames (`sk-abc` then `def…`) would match in neither: this holds back the word
 * still being written (keys are printable ASCII without blanks) and redacts what is released together with the text
 * before it, so a secret is whole when it is judged. Redaction keeps what precedes a secret
 * (`Authorization: `, `sk-`), so the released prefix never changes and each frame is the new tail.
 */
import { knownSecrets, redactSecrets } from '@hermes/agent-core';

/** A word longer than this is released up to its last `HOLD_MAX` characters (no key is that long). */
const HOLD_MAX = 1024;
/** Text kept before the release point to redact it in context; older text is never looked at again. */
const CONTEXT = 4096;

/**
 * Keys and tokens are printable ASCII without blanks; any other character ends a word. So text in
 * scripts without spaces (Chinese, Japanese) is released as it comes, not held for HOLD_MAX characters.
 */
const NOT_KEY_CHAR = /[^\x21-\x7e]/;

/** Where the trailing run of characters that could belong to a key starts. */
function wordStart(text: string): number {
  let i = text.length;
  while (i > 0 && !NOT_KEY_CHAR.test(text[i - 1]!)) i -= 1;
  return i;
}

export class StreamRedaction {
  /** Raw text not yet forgotten: `released` characters of it were sent. */
  private raw = '';
  private released = 0;
  /** The redaction of `raw.slice(0, released)`, what the client holds (for the tail of the next frame). */
  private shown = '';

  /** Adds streamed text; returns what may be sent now, redacted ('' while a word may still grow). */
  push(text: string): string {
    this.raw += text;
    return this.release(Math.max(this.beforeKnownStart(wordStart(this.raw)), this.raw.length - HOLD_MAX));
  }

  /** A known secret with a word break in it (a passphrase) may have begun before `at`: hold back from its start. */
  private beforeKnownStart(at: number): number {
    for (const value of knownSecrets()) {
      if (!NOT_KEY_CHAR.test(value)) continue;
      for (let k = Math.min(value.length - 1, at); k > 0; k -= 1) {
        if (this.raw.endsWith(value.slice(0, k), at)) return at - k;
      }
    }
    return at;
  }

  /** The end of the stream: everything still held, redacted. Starts over for the next stream. */
  end(): string {
    const out = this.release(this.raw.length);
    this.raw = '';
    this.released = 0;
    this.shown = '';
    return out;
  }

  private release(upTo: number): string {
    if (upTo <= this.released) return '';
    const whole = redactSecrets(this.raw.slice(0, upTo));
    // A secret that began in text already shown and spans a blank (`Bearer ` then the token, a PEM
    // block): what was shown stays, and the rest of the redacted text follows it. Nothing of the secret
    // goes out: all that is sent is redacted text.
    let same = 0;
    while (same < this.shown.length && whole[same] === this.shown[same]) same += 1;
    const out = whole.slice(same);
    this.released = upTo;
    this.shown = whole;
    this.forgetOld();
    return out;
  }

  /**
   * Keeps the text it redacts bounded: cut at a line break (or a blank, or anywhere in a blob without
   * either) well before the release point, in text already sent.
   */
  private forgetOld(): void {
    if (this.released <= 2 * CONTEXT) return;
    const from = this.released - CONTEXT;
    const line = this.raw.lastIndexOf('\n', from);
    const blank = this.raw.lastIndexOf(' ', from);
    // A break long before `from` would keep too much: only one within the last CONTEXT characters counts.
    const near = (i: number) => i > from - CONTEXT;
    const cut = near(line) ? line : near(blank) ? blank : from;
    this.raw = this.raw.slice(cut + 1);
    this.released -= cut + 1;
    this.shown = redactSecrets(this.raw.slice(0, this.released));
  }
}
