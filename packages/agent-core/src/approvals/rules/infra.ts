/**
 * Infrastructure: containers (what they delete, what they can reach on the host, and the commands
 * run inside them, judged with container paths mapped through bind mounts), clusters, cloud CLIs,
 * infrastructure-as-code destroys, and removing installed packages.
 */
import path from 'node:path';
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValue, optValues, parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { classifyWrite, protectedTree, resolvePath, type ResolvedPath } from '../protectedPaths.ts';
import { isDynamic, lit, literal, type WordValue } from '../words.ts';
import { treeWrite } from './deletion.ts';

const text = (w: WordValue | undefined) => (w ? literal(w) ?? '' : '');
/** The literal arguments, lowercased, padded with spaces for ` verb ` matching. */
const line = (args: WordValue[]) => ` ${args.map((w) => text(w).toLowerCase()).join(' ')} `;

// ── bind mounts: container paths to host paths ──

type Segment = ResolvedPath['segments'][number];
interface Mount {
  dst: string[];
  /** The host directory, or null for a named volume or tmpfs (not a host path the user named). */
  src: ResolvedPath | null;
}

const segs = (p: string) => p.split('/').filter((s) => s && s !== '.');
const matches = (seg: Segment, name: string) => (seg.re ? seg.re.test(name) : seg.text === name);

function parseMounts(volumes: string[], mounts: string[], inv: Invocation, home: string): { mounts: Mount[]; unknown: boolean } {
  const out: Mount[] = [];
  let unknown = false;
  const host = (src: string) => resolvePath(lit(src.replace(/^~(?=\/|$)/, home)), inv.cwd);
  for (const v of volumes) {
    if (!v || v === '\u0000') unknown = true;
    else {
      const [src, dst] = v.split(':');
      if (dst === undefined) out.push({ dst: segs(src!), src: null });
      else out.push({ dst: segs(dst), src: /^[/.~]/.test(src!) ? host(src!) : null });
    }
  }
  for (const m of mounts) {
    if (!m || m === '\u0000') unknown = true;
    const fields = new Map(m.split(',').map((f) => [f.split('=')[0]!.toLowerCase(), f.slice(f.indexOf('=') + 1)] as [string, string]));
    const dst = fields.get('target') ?? fields.get('destination') ?? fields.get('dst');
    const src = fields.get('source') ?? fields.get('src');
    if (dst !== undefined) out.push({ dst: segs(dst), src: fields.get('type') === 'bind' && src ? host(src) : null });
  }
  return { mounts: out, unknown };
}

/**
 * Maps a container path to the host path it reaches through a bind mount (the innermost mount under
 * which it lies; for a path above mount points, the most sensitive mounted host directory).
 */
function mapThrough(mounts: Mount[], unknown: boolean, j: Judgement): Invocation['mapPath'] {
  return (p) => {
    if (p.unknownRoot) return mounts.some((m) => m.src) || unknown ? p : null;
    const under = mounts.filter((m) => m.dst.length <= p.segments.length && m.dst.every((d, i) => matches(p.segments[i]!, d))).sort((a, b) => b.dst.length - a.dst.length)[0];
    if (under) return under.src && { segments: [...under.src.segments, ...p.segments.slice(under.dst.length)], display: path.posix.join(under.src.display, ...p.segments.slice(under.dst.length).map((s) => s.text)), unknownRoot: under.src.unknownRoot };
    const above = mounts.filter((m) => m.src && m.dst.length > p.segments.length && p.segments.every((s, i) => matches(s, m.dst[i]!))).map((m) => m.src!);
    const severity = (h: ResolvedPath) => (protectedTree(h, j.facts) ? 2 : classifyWrite(h, j.facts).length ? 1 : 0);
    return above.sort((a, b) => severity(b) - severity(a))[0] ?? (unknown ? { segments: [], display: '', unknownRoot: true } : null);
  };
}

// ── docker, podman, nerdctl ──

const DOCKER: OptionSpec = { short: 'c:H:l:Dr', long: ['config=', 'context=', 'host=', 'log-level=', 'tls', 'tlscacert=', 'tlscert=', 'tlskey=', 'tlsverify', 'debug', 'connection=', 'url=', 'identity=', 'root=', 'runroot=', 'storage-driver=', 'storage-opt=', 'cgroup-manager=', 'events-backend=', 'runtime=', 'tmpdir=', 'remote', 'namespace=', 'address=', 'snapshotter='], posix: true };
const RUN_VALUED = ['add-host', 'annotation', 'attach', 'blkio-weight', 'cap-add', 'cap-drop', 'cgroup-parent', 'cgroupns', 'cidfile', 'cpu-period', 'cpu-quota', 'cpu-shares', 'cpus', 'cpuset-cpus', 'cpuset-mems', 'detach-keys', 'device', 'dns', 'dns-option', 'dns-search', 'domainname', 'entrypoint', 'env', 'env-file', 'expose', 'gpus', 'group-add', 'health-cmd', 'health-interval', 'health-retries', 'health-timeout', 'hostname', 'ip', 'ip6', 'ipc', 'isolation', 'label', 'label-file', 'link', 'log-driver', 'log-opt', 'mac-address', 'memory', 'memory-reservation', 'memory-swap', 'mount', 'name', 'network', 'net', 'network-alias', 'pid', 'pids-limit', 'platform', 'publish', 'pull', 'restart', 'runtime', 'security-opt', 'shm-size', 'stop-signal', 'stop-timeout', 'storage-opt', 'sysctl', 'tmpfs', 'ulimit', 'user', 'userns', 'uts', 'volume', 'volume-driver', 'volumes-from', 'workdir', 'arch', 'os', 'pod', 'secret', 'uidmap', 'gidmap', 'umask', 'tz', 'preserve-fds', 'requires', 'index'];
const RUN: OptionSpec = { short: 'dPitqTa:c:e:h:l:m:p:u:v:w:', long: [...RUN_VALUED.map((o) => `${o}=`), 'detach', 'interactive', 'tty', 'privileged', 'rm', 'init', 'read-only', 'publish-all', 'quiet', 'no-healthcheck', 'replace', 'rootfs', 'latest', 'service-ports', 'no-deps', 'build', 'use-aliases', 'help'], posix: true };
const HOST_CAPS = /^(?:all|sys_admin|sys_module|sys_ptrace|sys_rawio|dac_read_search)$/i;

function docker(inv: Invocation, j: Judgement): void {
  const ops = parseOptions(inv.args, DOCKER).operands;
  let [sub = '', ...args] = [text(ops[0]), ...ops.slice(1)];
  if (['container', 'image', 'volume', 'system', 'network', 'builder', 'stack', 'service', 'swarm', 'node'].includes(sub)) {
    const verb = text(args[0]);
    sub = sub === 'container' && !['prune'].includes(verb) ? verb : sub === 'image' && /^(?:rm|remove)$/.test(verb) ? 'rmi' : `${sub} ${verb}`;
    args = args.slice(1);
  }
  const say = (rule: string, target: string, why: string) => j.add('dangerous', rule, target, `${inv.name} ${why}`);
  if (/^volume (?:rm|remove|prune)$/.test(sub)) say('docker.volume-delete', 'container volumes', `${sub} deletes volumes and the data in them`);
  else if (/^(?:system|container|network|image) prune$/.test(sub)) {
    const p = parseOptions(args, { short: 'af', long: ['all', 'force', 'volumes', 'filter=', 'external'] });
    if (sub !== 'image prune' || hasOpt(p, 'a', 'all')) say('docker.prune', 'containers', `${sub} deletes every stopped container, unused image or network`);
    if (hasOpt(p, 'volumes')) say('docker.volume-delete', 'container volumes', `${sub} --volumes deletes unused volumes and their data`);
  } else if (sub === 'rm' || sub === 'rmi' || sub === 'remove') {
    const p = parseOptions(args, { short: 'aflv', long: ['all', 'force', 'link', 'volumes', 'depend', 'ignore', 'time='] });
    if (hasOpt(p, 'a', 'all') || inv.moreArgs || p.operands.some(isDynamic)) say('docker.remove-all', 'containers', `${sub} of ${hasOpt(p, 'a', 'all') ? 'everything' : 'names decided at run time'}`);
  } else if (/^(?:stack|service) (?:rm|remove|down)$|^node rm$/.test(sub)) say('docker.service-delete', 'container services', `${sub} removes running services and their containers`);
  else if (sub === 'swarm leave' && args.some((w) => /^--?f(?:orce)?$/.test(text(w)))) say('docker.service-delete', 'container services', 'swarm leave --force drops this node, and a last manager its whole swarm');
  else if (sub === 'system reset') say('docker.volume-delete', 'container volumes', 'system reset deletes every container, image and volume');
  else if (sub === 'run' || sub === 'create' || sub === 'exec') runInside(sub, args, inv, j);
  else if (sub === 'compose') compose(args, inv, j);
  else if (sub === 'cp') copyOut(args, inv, j);
}

/** `docker cp`, `kubectl cp`: a last operand without `NAME:` is a local file or directory written. */
function copyOut(args: WordValue[], inv: Invocation, j: Judgement): void {
  const dest = args[args.length - 1];
  if (dest && args.length >= 2 && !/^[^/.~][^/]*:/.test(text(dest))) treeWrite(dest, inv, j, `${inv.name} cp to`);
}
register(['docker', 'podman', 'nerdctl', 'finch'], docker);

/** `run IMAGE CMD…`, `exec CONTAINER CMD…`, compose `run|exec SERVICE CMD…`: the command, judged inside. */
function runInside(sub: string, args: WordValue[], inv: Invocation, j: Judgement, how = `${inv.name} ${sub}`): void {
  const p = parseOptions(args, RUN);
  const say = (why: string) => j.add('dangerous', 'container.host-access', 'host', `${how} ${why}`);
  if (hasOpt(p, 'privileged')) say('--privileged gives the container the host\'s devices and kernel');
  if (optValues(p, 'pid', 'userns', 'ipc').includes('host')) say('shares the host\'s processes or user namespace');
  if (optValues(p, 'cap-add').some((c) => HOST_CAPS.test(c.replace(/^cap_/i, '')))) say('--cap-add grants host-level capabilities');
  const { mounts, unknown } = parseMounts(optValues(p, 'v', 'volume'), optValues(p, 'mount'), inv, j.ctx.home);
  for (const m of mounts) {
    if (m.src && !m.src.unknownRoot && m.src.segments.length === 0) say(`mounts the host's whole file system at /${m.dst.join('/')}`);
    if (m.src && /docker\.sock$|podman\.sock$/.test(m.src.display)) say('mounts the container engine socket (root on the host)');
  }
  const latest = sub === 'exec' && hasOpt(p, 'latest');
  const command = p.operands.slice(latest ? 0 : 1);
  const entrypoint = optValue(p, 'entrypoint');
  const words = entrypoint && entrypoint !== '\u0000' ? [...entrypoint.split(/\s+/).map((w) => lit(w)), ...command] : command;
  if (!words.length) return;
  const workdir = optValue(p, 'w', 'workdir');
  // exec runs in a container made earlier: its mounts are unknown here, so nothing inside maps to the host.
  const mapPath = sub === 'exec' ? () => null : mapThrough(mounts, unknown, j);
  j.command(words, { ...inv, cwd: workdir && workdir !== '\u0000' ? path.posix.resolve('/', workdir) : null, mapPath }, how);
}

const COMPOSE: OptionSpec = { short: 'f:p:', long: ['file=', 'project-name=', 'profile=', 'env-file=', 'project-directory=', 'ansi=', 'progress=', 'parallel=', 'dry-run', 'compatibility', 'all-resources', 'verbose'], posix: true };

function compose(args: WordValue[], inv: Invocation, j: Judgement): void {
  const p = parseOptions(args, COMPOSE);
  if (hasOpt(p, 'dry-run')) return;
  const [sub, ...rest] = [text(p.operands[0]), ...p.operands.slice(1)];
  const how = `${inv.name === 'docker' || inv.name === 'podman' ? `${inv.name} compose` : inv.name} ${sub}`;
  const q = parseOptions(rest, { short: 'vsf', long: ['volumes', 'rmi=', 'remove-orphans', 'timeout=', 'stop', 'force'] });
  if ((sub === 'down' || sub === 'rm') && hasOpt(q, 'v', 'volumes')) j.add('dangerous', 'docker.volume-delete', 'container volumes', `${how} -v deletes the project's volumes and their data`);
  if (sub === 'run' || sub === 'exec') runInside(sub === 'exec' ? 'exec' : 'run', rest, inv, j, how);
}
register(['docker-compose', 'podman-compose'], (inv, j) => compose(inv.args, inv, j));

// ── clusters ──

export const KUBECTL: OptionSpec = { short: 'n:s:l:c:o:f:k:itqA', long: ['namespace=', 'context=', 'kubeconfig=', 'server=', 'cluster=', 'user=', 'token=', 'as=', 'as-group=', 'as-uid=', 'certificate-authority=', 'client-certificate=', 'client-key=', 'request-timeout=', 'tls-server-name=', 'cache-dir=', 'v=', 'selector=', 'container=', 'output=', 'filename=', 'kustomize=', 'all-namespaces', 'all', 'force', 'grace-period=', 'now', 'wait', 'recursive', 'dry-run', 'stdin', 'tty', 'quiet', 'ignore-not-found', 'cascade=', 'field-selector=', 'ignore-daemonsets', 'delete-emptydir-data', 'timeout=', 'prune', 'pod-running-timeout='] };

function kubectl(inv: Invocation, j: Judgement): void {
  const p = parseOptions(inv.args, KUBECTL);
  const [sub, kind] = p.operands.map(text);
  const dry = optValue(p, 'dry-run');
  if (dry !== undefined && dry !== 'none') return;
  const files = hasOpt(p, 'f', 'filename', 'k', 'kustomize');
  const shown = inv.args.map(text).join(' ');
  if (sub === 'delete') j.add('dangerous', 'kubectl.delete', `kubernetes ${files || !kind ? 'resources' : kind.split('/')[0]}`, `${inv.name} ${shown} deletes cluster resources`);
  if (sub === 'drain') j.add('dangerous', 'kubectl.drain', 'kubernetes node', `${inv.name} drain ${kind ?? ''} evicts every pod from a node`);
  if (sub === 'apply' && hasOpt(p, 'prune')) j.add('dangerous', 'kubectl.delete', 'kubernetes resources', `${inv.name} apply --prune deletes resources missing from the manifests`);
  if (sub === 'cp') copyOut(p.operands.slice(1), inv, j);
  if (sub === 'exec') {
    const dash = inv.args.findIndex((w) => text(w) === '--');
    const words = dash >= 0 ? inv.args.slice(dash + 1) : p.operands.slice(2);
    if (words.length) j.command(words, { ...inv, cwd: null, mapPath: () => null }, `${inv.name} exec`);
  }
}
register(['kubectl', 'oc'], kubectl);

register(['helm'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'n:', long: ['namespace=', 'kube-context=', 'kubeconfig=', 'registry-config=', 'repository-cache=', 'repository-config=', 'burst-limit=', 'qps=', 'kube-apiserver=', 'kube-token=', 'dry-run'] });
  const [sub, release] = p.operands.map(text);
  if (/^(?:uninstall|delete|del|un)$/.test(sub ?? '') && !hasOpt(p, 'dry-run')) j.add('dangerous', 'helm.uninstall', 'kubernetes release', `helm ${sub} ${release ?? ''} removes a release and its resources`);
});

// ── infrastructure as code and cloud CLIs ──

register(['terraform', 'tofu', 'terragrunt', 'pulumi', 'cdk', 'cdktf', 'serverless', 'sls'], (inv, j) => {
  const args = line(inv.args);
  const destroy = / destroy | workspace (?:delete|rm) | state (?:rm|delete) /.test(args) || (inv.name === 'pulumi' && / (?:down|stack rm) /.test(args)) || / apply .*--?destroy /.test(args) || (/^(?:serverless|sls)$/.test(inv.name) && / remove /.test(args));
  if (destroy && !/ --?help /.test(args)) j.add('dangerous', 'infra.destroy', 'cloud infrastructure', `${inv.name} ${inv.args.map(text).join(' ')} destroys the infrastructure it manages, or forgets it`);
});

const AWS: OptionSpec = { long: ['profile=', 'region=', 'output=', 'endpoint-url=', 'query=', 'color=', 'ca-bundle=', 'cli-read-timeout=', 'cli-connect-timeout=', 'cli-binary-format=', 'debug', 'no-verify-ssl', 'no-paginate', 'no-sign-request', 'no-cli-pager', 'recursive', 'delete', 'force', 'dryrun', 'dry-run'] };

register(['aws'], (inv, j) => {
  const p = parseOptions(inv.args, AWS);
  const [service = '', op = ''] = p.operands.map(text);
  if (hasOpt(p, 'dryrun', 'dry-run')) return;
  const s3 = service === 's3' && (op === 'rb' || (op === 'rm' && hasOpt(p, 'recursive')) || (op === 'sync' && hasOpt(p, 'delete')));
  if (s3 || /^(?:delete|terminate|remove|deregister|purge|destroy)-|^schedule-key-deletion$/.test(op)) {
    j.add('dangerous', 'cloud.delete', `aws ${service}`, `aws ${service} ${op} deletes cloud resources`);
  }
});

/** Other cloud CLIs: a delete verb among the first words. */
const CLOUD: [string[], RegExp, string][] = [
  [['gcloud'], /^(?:delete|rb)$/, 'gcloud'],
  [['gsutil'], /^rb$/, 'gcloud storage'],
  [['az'], /^(?:delete|purge|delete-batch)$/, 'az'],
  [['doctl'], /^(?:delete|rm)$/, 'digitalocean'],
  [['heroku'], /^(?:apps:destroy|apps:delete|destroy|pg:reset|addons:destroy|pg:killall)$/, 'heroku'],
  [['flyctl', 'fly'], /^(?:destroy|delete|remove)$/, 'fly'],
  [['vercel', 'vc'], /^(?:remove|rm)$/, 'vercel'],
  [['netlify'], /^sites:delete$/, 'netlify'],
  [['firebase'], /^(?:projects:delete|firestore:delete|database:remove|functions:delete|hosting:disable)$/, 'firebase'],
  [['wrangler'], /^delete$/, 'cloudflare'],
  [['supabase', 'railway'], /^(?:delete|down)$/, 'cloud'],
  [['eksctl'], /^delete$/, 'aws eks'],
  [['vagrant'], /^destroy$/, 'virtual machines'],
  [['hcloud'], /^delete$/, 'hetzner'],
  [['linode-cli'], /^(?:delete|rm)$/, 'linode'],
  [['vultr-cli'], /^(?:delete|destroy|d)$/, 'vultr'],
  [['scw'], /^delete$/, 'scaleway'],
  [['oci'], /^(?:delete|terminate)$/, 'oracle cloud'],
];
const CLOUD_GLOBAL: OptionSpec = { long: ['project=', 'account=', 'configuration=', 'format=', 'verbosity=', 'zone=', 'region=', 'impersonate-service-account=', 'billing-project=', 'subscription=', 'context='] };
for (const [names, verbs, target] of CLOUD) {
  register(names, (inv, j) => {
    const ops = parseOptions(inv.args, CLOUD_GLOBAL).operands.map(text).slice(0, 5);
    const recursive = /^(?:gcloud|gsutil)$/.test(inv.name) && ops.includes('rm') && inv.args.some((w) => /^-(?:r|R)$|^--recursive$/.test(text(w)));
    if (ops.some((o) => verbs.test(o.toLowerCase())) || recursive) j.add('dangerous', 'cloud.delete', inv.name === 'gcloud' && ops[0] ? `gcloud ${ops[0]}` : target, `${inv.name} ${ops.join(' ')} deletes cloud resources`);
  });
}

/**
 * Object stores, remote file systems and job schedulers: `[names, verb, what else on the padded line
 * makes it a mass delete (null: the verb alone), target]`. `rclone sync`, `mc mirror --remove`,
 * `s3cmd sync --delete-removed` and `gsutil rsync -d` delete at the destination what the source lacks.
 */
const BULK_DELETES: [string[], RegExp, RegExp | null, string][] = [
  [['rclone'], /^(?:purge|delete|deletefile|rmdir|rmdirs|sync|cleanup)$/, null, 'cloud storage'],
  [['mc', 'mcli'], /^rb$/, / --force /, 'cloud storage'],
  [['mc', 'mcli'], /^rm$/, /^(?=.* (?:-r|--recursive) )(?=.* --force )/, 'cloud storage'],
  [['mc', 'mcli'], /^mirror$/, / --remove /, 'cloud storage'],
  [['s3cmd'], /^(?:del|rm)$/, / (?:-r|--recursive) /, 'cloud storage'],
  [['s3cmd'], /^rb$/, null, 'cloud storage'],
  [['s3cmd'], /^sync$/, / --delete-removed /, 'cloud storage'],
  [['gsutil'], /^rsync$/, / -\w*d/, 'cloud storage'],
  [['azcopy'], /^(?:remove|rm)$/, / --recursive/, 'cloud storage'],
  [['nomad'], /^stop$/, / -purge /, 'nomad job'],
];
register([...new Set(BULK_DELETES.flatMap(([names]) => names))], (inv, j) => {
  const padded = line(inv.args);
  if (/ (?:--dry-run|-n|--dryrun) /.test(padded)) return;
  const verbs = inv.args.map(text).filter((w) => !w.startsWith('-')).slice(0, 3);
  const hit = BULK_DELETES.find(([names, verb, more]) => names.includes(inv.name) && verbs.some((v) => verb.test(v)) && (!more || more.test(padded)));
  if (hit) j.add('dangerous', 'cloud.delete', hit[3], `${inv.name} ${inv.args.map(text).join(' ')} deletes in bulk`);
});

// ── removing installed packages ──

/** What a python command line runs: a module (`-m pip`), a script, or code (`-c`), and its arguments. */
export function pythonProgram(inv: Invocation): { module?: string; script?: string; args: WordValue[] } {
  const parsed = parseOptions(inv.args, { short: 'bBdEhiIOPqsSuvVxRW:X:c:m:', posix: true });
  const module = optValues(parsed, 'm')[0];
  if (module !== undefined) return { module, args: parsed.operands };
  if (hasOpt(parsed, 'c')) return { args: parsed.operands };
  return { script: text(parsed.operands[0]), args: parsed.operands.slice(1) };
}

/** `[names, pattern on the padded arguments (case kept), what is removed]`. */
const REMOVALS: [string[], RegExp, string][] = [
  [['npm', 'pnpm', 'bun'], /^(?=.* (?:uninstall|remove|rm|r|un|unlink) )(?=.* (?:-g|--global|--location=global) )/, 'global packages'],
  [['yarn'], / global (?:remove|uninstall) /, 'global packages'],
  [['pip'], / uninstall /, 'python packages'],
  [['uv'], / pip uninstall /, 'python packages'],
  [['uv'], / tool uninstall /, 'global packages'],
  [['pipx'], / uninstall(?:-all)? /, 'global packages'],
  [['conda', 'mamba', 'micromamba'], / (?:remove|uninstall) /, 'python packages'],
  [['apt', 'apt-get', 'aptitude'], / (?:remove|purge|autoremove|autopurge) /, 'system packages'],
  [['dnf', 'yum', 'microdnf'], / (?:remove|erase|autoremove) /, 'system packages'],
  [['zypper'], / (?:remove|rm) /, 'system packages'],
  [['pacman', 'yay', 'paru'], / (?:-[a-zA-Z]*R[a-zA-Z]*|--remove) /, 'system packages'],
  [['brew'], / (?:uninstall|remove|rm|autoremove) /, 'system packages'],
  [['snap', 'flatpak'], / (?:remove|uninstall) /, 'system packages'],
  [['apk'], / del /, 'system packages'],
  [['port', 'choco', 'winget', 'scoop'], / uninstall /, 'system packages'],
  [['dpkg'], / (?:-r|-P|--remove|--purge) /, 'system packages'],
  [['rpm'], / (?:-e|--erase) /, 'system packages'],
  [['nix-env'], / (?:-e|--uninstall) /, 'system packages'],
  [['gem', 'cargo'], / uninstall /, 'global packages'],
  [['rustup'], / (?:toolchain (?:uninstall|remove)|self uninstall) /, 'global packages'],
];

function removal(name: string, args: WordValue[], j: Judgement): void {
  const padded = ` ${args.map(text).join(' ')} `;
  const hit = REMOVALS.find(([names, re]) => names.includes(name) && re.test(padded) && !/ --?(?:help|dry-run|simulate|s) /.test(padded));
  if (hit) j.add('dangerous', 'package.remove', hit[2], `${name}${padded.trimEnd()} removes installed ${hit[2]}`);
}
register(REMOVALS.flatMap(([names]) => names).filter((n, i, all) => n !== 'pip' && all.indexOf(n) === i), (inv, j) => removal(inv.name, inv.args, j));
register(/^pip[\d.]*$/, (inv, j) => removal('pip', inv.args, j));
register(/^python[\d.]*$/, (inv, j) => {
  const program = pythonProgram(inv);
  if (program.module === 'pip') removal('pip', program.args, j);
});
