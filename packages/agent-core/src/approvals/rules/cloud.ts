/**
 * Cloud and cluster changes that are not deletes (those are in infra.ts): granting identities power
 * (IAM bindings, admin policies, access keys, cluster-admin bindings), exposing storage or ports to
 * everyone, scaling workloads to zero, secret engines turned off, and shell commands sent to remote
 * machines (`aws ssm send-command`, `az vm run-command`, `gcloud compute ssh --command`), judged.
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { optValue, optValues, parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { literal, type WordValue } from '../words.ts';
import { KUBECTL } from './infra.ts';

const text = (w: WordValue | undefined) => (w ? literal(w) ?? '' : '');
const shown = (inv: Invocation) => `${inv.name} ${inv.args.map((w) => literal(w) ?? w.source).join(' ')}`;
const OPEN = /(?:^|[^\d.])0\.0\.0\.0\/0\b|(?:^|[\s,"'[=])::\/0\b|^\*$|^internet$|^any$/i;

const iam = (inv: Invocation, j: Judgement, target = 'cloud identity') => j.add('dangerous', 'cloud.iam', target, `${shown(inv)} grants access or makes credentials`);
const exposure = (inv: Invocation, j: Judgement, target: string) => j.add('dangerous', 'cloud.exposure', target, `${shown(inv)} opens it to everyone`);
const scaleDown = (inv: Invocation, j: Judgement, target: string) => j.add('dangerous', 'infra.scale-down', target, `${shown(inv)} scales to zero: the service stops`);

/** Commands sent to run on remote machines: judged as shell code there (as `ssh HOST CMD` is). */
function remote(commands: string[], inv: Invocation, j: Judgement): void {
  for (const c of commands) if (c && c !== '\u0000') j.code(c, { ...inv, cwd: null });
}

/** The `commands` of `--parameters`: JSON (`{"commands":[…]}`) or shorthand (`commands=[a,b]`, `commands='x'`). */
function ssmCommands(value: string): string[] {
  try {
    const parsed = JSON.parse(value) as { commands?: unknown };
    if (Array.isArray(parsed.commands)) return parsed.commands.map(String);
  } catch {
    // shorthand
  }
  const m = /^commands=\[?(.*?)\]?$/s.exec(value.trim());
  return m ? m[1]!.split(/,(?=\s*['"]?[\w/.~-])/).map((c) => c.trim().replace(/^(['"])(.*)\1$/s, '$2')) : [];
}

const AWS: OptionSpec = { long: ['profile=', 'region=', 'output=', 'endpoint-url=', 'query=', 'color=', 'ca-bundle=', 'cli-read-timeout=', 'cli-connect-timeout=', 'debug', 'no-verify-ssl', 'no-paginate', 'no-sign-request', 'no-cli-pager', 'dry-run', 'dryrun', 'policy-arn=', 'acl=', 'cidr=', 'cidr-ipv6=', 'ip-permissions=', 'desired-capacity=', 'max-size=', 'desired-count=', 'parameters=', 'grant-read=', 'grant-full-control=', 'grant-write=', 'policy=', 'public-access-block-configuration='] };
const IAM_WRITES = /^(?:create-access-key|create-login-profile|update-login-profile|attach-(?:user|role|group)-policy|put-(?:user|role|group)-policy|add-user-to-group|update-assume-role-policy|create-policy-version|set-default-policy-version|create-service-specific-credential|upload-ssh-public-key|add-role-to-instance-profile)$/;

register(['aws'], (inv, j) => {
  const p = parseOptions(inv.args, AWS);
  if (p.opts.has('dry-run') || p.opts.has('dryrun')) return;
  const [service = '', op = ''] = p.operands.map(text);
  const value = (name: string) => optValues(p, name).join(' ');
  if (service === 'iam' && IAM_WRITES.test(op)) iam(inv, j);
  if (service === 'sts' && op === 'get-federation-token') iam(inv, j);
  if (service === 's3api' && /^put-(?:bucket|object)-acl$/.test(op) && (/^public-|^authenticated-read$/.test(value('acl')) || /AllUsers|AuthenticatedUsers/.test(value('grant-read') + value('grant-full-control') + value('grant-write')))) exposure(inv, j, 'public storage');
  if (service === 's3api' && op === 'put-bucket-policy' && /"Principal"\s*:\s*(?:"\*"|\{\s*"AWS"\s*:\s*"\*")/.test(value('policy'))) exposure(inv, j, 'public storage');
  if (service === 'ec2' && /^authorize-security-group-(?:ingress|egress)$/.test(op) && (OPEN.test(value('cidr')) || OPEN.test(value('cidr-ipv6')) || /0\.0\.0\.0\/0|::\/0/.test(value('ip-permissions')))) exposure(inv, j, 'network exposure');
  if (service === 'autoscaling' && /^(?:update-auto-scaling-group|set-desired-capacity)$/.test(op) && [value('desired-capacity'), value('max-size')].includes('0')) scaleDown(inv, j, 'cloud workloads');
  if (service === 'ecs' && op === 'update-service' && value('desired-count') === '0') scaleDown(inv, j, 'cloud workloads');
  if (service === 'ssm' && op === 'send-command') remote(optValues(p, 'parameters').flatMap(ssmCommands), inv, j);
});

const GCLOUD: OptionSpec = { long: ['project=', 'account=', 'configuration=', 'format=', 'verbosity=', 'zone=', 'region=', 'impersonate-service-account=', 'billing-project=', 'member=', 'role=', 'source-ranges=', 'source-tags=', 'source-service-accounts=', 'direction=', 'allow=', 'size=', 'command=', 'iam-account=', 'network=', 'rules=', 'action=', 'quiet'] };

register(['gcloud'], (inv, j) => {
  const p = parseOptions(inv.args, GCLOUD);
  const ops = p.operands.map(text).slice(0, 5);
  const has = (...words: string[]) => words.every((w) => ops.includes(w));
  if (ops.includes('add-iam-policy-binding') || ops.includes('set-iam-policy')) {
    if (optValues(p, 'member').some((m) => /^all(?:Authenticated)?Users$/.test(m))) exposure(inv, j, 'public storage');
    else iam(inv, j);
  }
  if (has('service-accounts', 'keys', 'create') || has('hmac', 'create')) iam(inv, j);
  if (has('firewall-rules') && (ops.includes('create') || ops.includes('update')) && optValue(p, 'direction')?.toUpperCase() !== 'EGRESS') {
    const ranges = optValues(p, 'source-ranges').flatMap((r) => r.split(','));
    const unscoped = ops.includes('create') && !ranges.length && !optValues(p, 'source-tags', 'source-service-accounts').length;
    if (unscoped || ranges.some((r) => OPEN.test(r))) exposure(inv, j, 'network exposure');
  }
  if (ops.includes('resize') && optValue(p, 'size') === '0') scaleDown(inv, j, 'cloud workloads');
  if (has('compute', 'ssh')) remote(optValues(p, 'command'), inv, j);
});

const AZ: OptionSpec = { long: ['subscription=', 'output=', 'query=', 'role=', 'assignee=', 'assignee-object-id=', 'scope=', 'source-address-prefixes=', 'source-address-prefix=', 'access=', 'direction=', 'new-capacity=', 'scripts=', 'command-id=', 'resource-group=', 'name=', 'nsg-name=', 'priority=', 'debug', 'verbose', 'only-show-errors'] };

register(['az'], (inv, j) => {
  const p = parseOptions(inv.args, AZ);
  const ops = p.operands.map(text).slice(0, 5).join(' ');
  if (/^role assignment create\b|^ad (?:sp|app) credential reset\b|^ad (?:sp|app) (?:owner add|permission grant)\b/.test(ops)) iam(inv, j);
  if (/^network nsg rule (?:create|update)\b/.test(ops) && optValue(p, 'access')?.toLowerCase() !== 'deny' && optValues(p, 'source-address-prefixes', 'source-address-prefix').flatMap((v) => v.split(/[\s,]+/)).some((v) => OPEN.test(v))) exposure(inv, j, 'network exposure');
  if (/^vmss scale\b/.test(ops) && optValue(p, 'new-capacity') === '0') scaleDown(inv, j, 'cloud workloads');
  if (/^vm run-command (?:invoke|create)\b/.test(ops)) remote(optValues(p, 'scripts'), inv, j);
});

/** Cluster-wide bindings, and admin roles bound in a namespace; workloads scaled to zero. */
register(['kubectl', 'oc'], (inv, j) => {
  const p = parseOptions(inv.args, { ...KUBECTL, long: [...(KUBECTL.long ?? []), 'clusterrole=', 'role=', 'serviceaccount=', 'group=', 'replicas=', 'current-replicas=', 'dry-run='] });
  const [sub, kind] = p.operands.map(text);
  const dry = optValue(p, 'dry-run');
  if (dry !== undefined && dry !== 'none') return;
  const admin = optValues(p, 'clusterrole').some((r) => /^(?:cluster-admin|admin|edit)$/.test(r));
  if (sub === 'create' && (kind === 'clusterrolebinding' || (kind === 'rolebinding' && admin))) iam(inv, j, 'kubernetes rbac');
  if (sub === 'scale' && optValue(p, 'replicas') === '0') scaleDown(inv, j, 'kubernetes workloads');
});

/** Vault: turning off a secrets engine or an auth method, or destroying every version of a secret. */
register(['vault'], (inv, j) => {
  const ops = inv.args.map(text).filter((w) => !w.startsWith('-')).slice(0, 3).join(' ');
  const prefixRevoke = ops.startsWith('lease revoke') && inv.args.some((w) => /^--?prefix/.test(text(w)));
  if (/^(?:secrets|auth|audit) disable\b|^kv (?:metadata delete|destroy)\b|^delete\b/.test(ops) || prefixRevoke) {
    j.add('dangerous', 'vault.delete', 'secrets', `${shown(inv)} deletes secrets or turns off what guards them`);
  }
});
