/**
 * Which environment variables hold secrets. Two lists with two uses: provider keys are kept from tool
 * processes (with every variable named in `$HERMES_HOME/.env`); any variable named like a key, token,
 * secret or password has its value redacted from what hermes stores, sends and logs.
 */
import { PROVIDER_PRESETS } from '../providers/presets.ts';

/** LLM providers' key variables: hermes's own presets and the ones other agents read. */
const PROVIDER_KEY_VARS: ReadonlySet<string> = new Set([
  ...PROVIDER_PRESETS.flatMap((p) => (p.keyVar ? [p.keyVar] : [])),
  'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENROUTER_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY',
  'GROQ_API_KEY', 'MISTRAL_API_KEY', 'DEEPSEEK_API_KEY', 'XAI_API_KEY', 'TOGETHER_API_KEY', 'FIREWORKS_API_KEY',
  'COHERE_API_KEY', 'PERPLEXITY_API_KEY', 'NOUS_API_KEY', 'AZURE_OPENAI_API_KEY', 'HF_TOKEN', 'HUGGINGFACE_API_KEY',
]);

/**
 * `*_API_KEY`, `*_TOKEN`, `*_SECRET*`, `*PASSWORD*`, access and private keys, credentials. Not `AUTH`
 * alone: `SSH_AUTH_SOCK` is a socket path, not a secret.
 */
const SECRET_NAME = /(?:^|_)(?:API_?KEY|APIKEY|TOKEN|ACCESS_KEY(?:_ID)?|PRIVATE_KEY|CREDENTIALS?|PASS)(?:_|$)|PASSWORD|PASSWD|SECRET|_KEY$/i;

export function isSecretName(name: string): boolean {
  return PROVIDER_KEY_VARS.has(name) || SECRET_NAME.test(name);
}

export function isProviderKeyVar(name: string): boolean {
  return PROVIDER_KEY_VARS.has(name);
}
