/**
 * The machine itself: formatting or wiping disks, killing every process, shutting down or rebooting
 * (in any spelling), services, users, firewall, scheduled jobs.
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, parseOptions } from '../options.ts';
import { register } from '../programRules.ts';
import { display, literal, type WordValue } from '../words.ts';

const texts = (words: WordValue[]) => words.map((w) => literal(w) ?? display(w));
const hard = (j: Judgement, rule: string, target: string, why: string) => j.add('hardline', rule, target, why);

// ── disks ──
const FORMATTERS = /^(?:mkfs(?:\..+)?|mke2fs|mkswap|mkdosfs|mkfs_msdos|mkntfs|mkexfatfs|mkexfat|mkfs\.\w+|mkreiserfs|mkudffs|mkhfs|newfs(?:_\w+)?|wipefs|blkdiscard|sgdisk|sfdisk|gdisk|cgdisk|fdisk|cfdisk|parted|partprobe|mdadm|lvremove|vgremove|pvremove|lvreduce|pvcreate|vgcreate|zpool|zfs|cryptsetup|nvme|hdparm|badblocks|diskutil|format|dmsetup|kpartx|mkbtrfs|btrfs|flashrom|sg_format|blockdev|scrub|e2fsck|fsck(?:\..+)?|tune2fs|resize2fs|xfs_repair|losetup|mkisofs|eject)$/;

function disk(inv: Invocation, j: Judgement): void {
  const args = texts(inv.args);
  const a = args.map((x) => x.toLowerCase());
  const has = (...w: string[]) => a.some((x) => w.includes(x));
  const why = (what: string) => hard(j, 'disk.destroy', 'disk', `${inv.name} ${what}`);
  const name = inv.name;
  if (/^(?:mkfs|mke2fs|mkswap|mkdosfs|mkfs_msdos|mkntfs|mkexfat|mkreiserfs|mkudffs|mkhfs|newfs|mkbtrfs)/.test(name) && !has('-v', '--version', '-h', '--help', '-v')) return why('creates a new file system, erasing the old one');
  if (name === 'wipefs' && !a.every((x) => !x.startsWith('-') || ['-n', '--no-act', '-h', '--help'].includes(x))) return why('erases file-system signatures');
  if (name === 'blkdiscard' || name === 'flashrom' || name === 'sg_format' || name === 'scrub') return why('erases a device');
  if (['sgdisk', 'sfdisk', 'gdisk', 'cgdisk', 'fdisk', 'cfdisk', 'parted'].includes(name)) {
    const readOnly = has('-l', '--list', '-p', '--print', '-v', '--verify', '-i', '--info', '-h', '--help', '--version', '-d', '--dump', '-s', '--show-size', 'print', 'list') && !has('mklabel', 'mkpart', 'rm', 'resizepart', '-z', '--zap-all', '-o', '--clear', '--delete');
    if (!readOnly) return why('rewrites a partition table');
    return;
  }
  if (name === 'mdadm' && has('--zero-superblock', '--create', '-c', '--build', '--grow')) return why('rewrites RAID metadata');
  if (['lvremove', 'vgremove', 'pvremove', 'lvreduce'].includes(name)) return why('removes or shrinks a volume');
  if (name === 'zpool' && has('destroy', 'labelclear', 'create')) return why('destroys a pool');
  if (name === 'zfs' && has('destroy', 'rollback')) return j.add('dangerous', 'disk.destroy', 'disk', `zfs ${a[0]} loses data`);
  if (name === 'cryptsetup' && has('luksformat', 'erase', 'luksErase'.toLowerCase(), 'reencrypt')) return why('erases encrypted-volume keys');
  if (name === 'nvme' && has('format', 'sanitize', 'delete-ns')) return why('erases an NVMe drive');
  if (name === 'hdparm' && a.some((x) => /^--(?:security-erase|security-erase-enhanced|trim-sector-ranges|make-bad-sector|write-sector|fwdownload|dco-restore)/.test(x))) return why('erases or rewrites a drive');
  if (name === 'badblocks' && a.some((x) => /^-\w*w/.test(x))) return why('-w overwrites the whole device');
  if (name === 'diskutil' && /^(?:erase\w*|zerodisk|secureerase|reformat|partitiondisk|apfs)$/.test(a[0] ?? '')) return why(`${a[0]} erases a disk`);
  if (name === 'btrfs' && has('device') && has('delete', 'remove')) return why('removes a device from a file system');
  if (name === 'dmsetup' && has('remove', 'remove_all', 'wipe_table')) return why('removes device mappings');
  if (['e2fsck', 'fsck', 'xfs_repair', 'tune2fs', 'resize2fs', 'losetup', 'blockdev', 'kpartx', 'partprobe', 'eject'].includes(name) || /^fsck\./.test(name)) {
    if (!has('-n', '--help', '-h', '-l', '--list', '-v', '--getsize64', '--report', '--version')) j.add('dangerous', 'disk.modify', 'disk', `${name} changes a file system or device`);
  }
}
register(FORMATTERS, disk);

// ── killing everything ──
function kill(inv: Invocation, j: Judgement): void {
  const args = inv.args;
  let i = 0;
  const targets: WordValue[] = [];
  for (; i < args.length; i += 1) {
    const t = literal(args[i]!) ?? '';
    if (t === '--') {
      targets.push(...args.slice(i + 1));
      break;
    }
    if (['-s', '-n', '--signal'].includes(t)) i += 1;
    else if (['-l', '-L', '--list', '--table'].includes(t)) return;
    else if (t === '-1' && i > 0) targets.push(args[i]!);
    else if (t === '-1' && args.length === 1) targets.push(args[i]!);
    else if (t.startsWith('-') && i === 0 && args.length > 1) continue;
    else targets.push(args[i]!);
  }
  for (const target of targets) {
    const t = literal(target);
    if (t === '-1') hard(j, 'kill.everything', 'all processes', `${inv.name} ${texts(inv.args).join(' ')} signals every process it may (pid -1)`);
    if (t === '0' || t === '-0') j.add('dangerous', 'kill.group', 'process group', 'kill 0 signals the whole process group');
    if (t === '1') hard(j, 'kill.everything', 'init', 'signalling pid 1 (init) can bring the machine down');
    const source = target.source;
    // `kill $(ps -e -o pid=)`, `` kill `ps ax -o pid=` ``: every process id on the machine.
    const listing = /^(?:\$\(|`)\s*(?:\/\S*\/)?ps\s+([^)`|]*)/.exec(source);
    if (listing && /(?:^|\s)(?:-\w*[eA]\w*|a?x\w*|aux\w*|--all)\b/.test(listing[1]!) && !/\s-[CpuUGsqt]\b|--(?:pid|user|ppid|sid)\b/.test(listing[1]!)) {
      hard(j, 'kill.everything', 'all processes', `${inv.name} of every process id (${source})`);
    }
  }
}
register(['kill'], kill);
register(['killall5'], (inv, j) => hard(j, 'kill.everything', 'all processes', 'killall5 signals every process'));

function pkill(inv: Invocation, j: Judgement): void {
  const parsed = parseOptions(inv.args, { short: 'cefilnovxrJ:F:g:G:P:s:t:u:U:O:', long: ['signal=', 'euid=', 'uid=', 'group=', 'pgroup=', 'session=', 'terminal=', 'parent=', 'full', 'exact', 'newest', 'oldest', 'ns=', 'nslist='] });
  const signal = texts(inv.args).find((t) => /^-(?:9|kill|sigkill)$/i.test(t) || /^--signal=(?:9|kill|sigkill)$/i.test(t));
  const users = texts(inv.args).some((t) => /^-[uU]|^--(?:e?uid)/.test(t)) || (inv.name === 'killall' && hasOpt(parsed, 'u', 'user'));
  const patterns = parsed.operands.filter((w) => !/^\d+$/.test(literal(w) ?? '') || inv.name !== 'pkill');
  if (users && patterns.length === 0) return hard(j, 'kill.everything', 'all processes', `${inv.name} ${texts(inv.args).join(' ')} kills every process of a user`);
  if (inv.name === 'killall' || signal) j.add('dangerous', 'kill.by-name', 'processes', `${inv.name} ${texts(inv.args).join(' ')} kills processes by name${signal ? ' with SIGKILL' : ''}`);
  if (texts(inv.args).some((t) => /^-(?:s|-signal)$/i.test(t))) {
    const idx = texts(inv.args).findIndex((t) => /^-(?:s|-signal)$/i.test(t));
    if (/^(?:9|kill|sigkill)$/i.test(texts(inv.args)[idx + 1] ?? '')) j.add('dangerous', 'kill.by-name', 'processes', `${inv.name} kills processes by name with SIGKILL`);
  }
}
register(['pkill', 'killall'], pkill);

// ── shutdown and reboot in any spelling ──
const POWER_WORDS = /^(?:poweroff|reboot|halt|kexec|shutdown|suspend|hibernate|hybrid-sleep|soft-reboot|rescue|emergency)$/;
const POWER_TARGETS = /^(?:poweroff|reboot|halt|kexec|shutdown|rescue|emergency|soft-reboot)\.target$/;

function power(inv: Invocation, j: Judgement): void {
  const a = texts(inv.args).map((x) => x.toLowerCase());
  const say = (what: string) => hard(j, 'power.off', 'machine', what);
  if (['shutdown', 'reboot', 'halt', 'poweroff'].includes(inv.name)) {
    if (a.some((x) => ['-c', '--help', '-k', '--version', '--show'].includes(x))) return;
    return say(`${inv.name} shuts down or reboots the machine`);
  }
  if (inv.name === 'init' || inv.name === 'telinit') {
    if (a.some((x) => ['0', '6', 's', 'S'.toLowerCase(), '1'].includes(x))) say(`${inv.name} ${a.join(' ')} changes the runlevel (halt, reboot or single-user)`);
    return;
  }
  if (inv.name === 'kexec') {
    if (a.some((x) => /^-\w*e$|^--exec$/.test(x))) say('kexec -e reboots into another kernel');
    return;
  }
  if (inv.name === 'systemctl' || inv.name === 'loginctl') {
    const ops = a.filter((x) => !x.startsWith('-'));
    const verb = ops[0] ?? '';
    if (POWER_WORDS.test(verb)) return say(`${inv.name} ${verb} shuts down, reboots or suspends the machine`);
    if (['start', 'isolate', 'restart', 'reload-or-restart', 'try-restart', 'enable', 'default'].includes(verb) && ops.slice(1).some((u) => POWER_TARGETS.test(u) || /^(?:poweroff|reboot|halt|kexec)$/.test(u))) {
      return say(`${inv.name} ${verb} ${ops.slice(1).join(' ')} shuts down or reboots the machine`);
    }
    if (verb === 'set-default' && ops.slice(1).some((u) => POWER_TARGETS.test(u))) return say('boots into power-off on every start');
    if (inv.name === 'loginctl' && ['terminate-user', 'kill-user', 'terminate-session', 'kill-session'].includes(verb)) j.add('dangerous', 'kill.session', 'user session', `loginctl ${verb} ends a login session`);
  }
}
register(['shutdown', 'reboot', 'halt', 'poweroff', 'init', 'telinit', 'kexec', 'systemctl', 'loginctl'], power);

/** D-Bus calls to logind or the session manager that power off or reboot. */
register(['busctl', 'dbus-send', 'gdbus', 'qdbus'], (inv, j) => {
  const text = texts(inv.args).join(' ');
  if (/login1|SessionManager|ConsoleKit|systemd1/i.test(text) && /\b(?:PowerOff|Reboot|Halt|Suspend|Hibernate|KExec|RequestShutdown|RequestReboot|Shutdown)\b/i.test(text)) {
    hard(j, 'power.off', 'machine', `${inv.name} asks the system to power off or reboot over D-Bus`);
  }
});

// ── services, users, firewall, schedules ──
register(['systemctl', 'service', 'launchctl', 'invoke-rc.d', 'rc-service', 'update-rc.d', 'sv', 'rc-update', 'chkconfig'], (inv, j) => {
  const a = texts(inv.args).map((x) => x.toLowerCase());
  if (inv.name === 'systemctl' && a.includes('--user')) return;
  const verbs = ['stop', 'disable', 'mask', 'kill', 'restart', 'unload', 'bootout', 'remove', 'del', 'delete', 'reload-or-restart', 'try-restart', 'force-reload', 'off', 'down', 'isolate'];
  const verb = a.find((x) => verbs.includes(x));
  if (verb) j.add('dangerous', 'service.stop', 'system service', `${inv.name} ${a.join(' ')} stops or disables a service`);
});

register(['useradd', 'adduser', 'usermod', 'userdel', 'deluser', 'groupadd', 'groupmod', 'groupdel', 'passwd', 'chpasswd', 'chage', 'vipw', 'vigr', 'gpasswd', 'newusers', 'pwconv'], (inv, j) => {
  const a = texts(inv.args);
  if (inv.name === 'passwd' && (a.length === 0 || a.every((x) => ['-S', '--status', '-h', '--help'].includes(x) || !x.startsWith('-')) && !a.some((x) => x === '-d'))) {
    if (a.length === 0 || a.includes('-S') || a.includes('--status')) return;
  }
  j.add('dangerous', 'users.modify', 'accounts', `${inv.name} ${a.join(' ')} changes user accounts or passwords`);
});

register(['visudo'], (inv, j) => {
  if (texts(inv.args).some((x) => ['-c', '--check'].includes(x))) return;
  j.add('dangerous', 'write.protected', 'sudoers', 'visudo edits who may become root');
});

register(['iptables', 'ip6tables', 'iptables-legacy', 'iptables-nft', 'nft', 'ufw', 'firewall-cmd', 'pfctl', 'ipfw'], (inv, j) => {
  const a = texts(inv.args);
  const listing = a.some((x) => /^-(?:L|S|-list|-list-rules)$/.test(x) || ['list', 'status', 'show'].includes(x) || x === '--state');
  if (!listing || a.some((x) => /^-(?:F|X|P|D|-flush|-delete-chain|-policy|-delete)$/.test(x) || ['flush', 'disable', 'reset', 'delete', '-d'].includes(x))) {
    if (a.length) j.add('dangerous', 'firewall.modify', 'firewall', `${inv.name} ${a.join(' ')} changes the firewall`);
  }
});

register(['crontab'], (inv, j) => {
  const a = texts(inv.args);
  if (a.includes('-l') && !a.includes('-r')) return;
  if (a.some((x) => /^-\w*r/.test(x))) return j.add('dangerous', 'cron.replace', 'cron', 'crontab -r removes every scheduled job');
  if (a.includes('-e')) return j.add('dangerous', 'cron.replace', 'cron', 'crontab -e edits scheduled jobs');
  const file = a.filter((x) => !x.startsWith('-') || x === '-');
  if (file.length) j.add('dangerous', 'cron.replace', 'cron', `crontab ${file.join(' ')} replaces every scheduled job${file.includes('-') ? ' with what it reads' : ''}`);
});

register(['sysctl'], (inv, j) => {
  if (texts(inv.args).some((x) => x.includes('=') || /^-\w*[wp]/.test(x))) j.add('dangerous', 'kernel.modify', 'kernel settings', `sysctl ${texts(inv.args).join(' ')} changes kernel settings`);
});

register(['mount', 'umount', 'swapoff', 'modprobe', 'rmmod', 'insmod'], (inv, j) => {
  const a = texts(inv.args);
  if (a.length === 0 || a.every((x) => ['-l', '--list', '-h', '--help', '-V', '--version', '-a', '--show-config'].includes(x))) return;
  if (inv.name === 'mount' && a.length <= 1) return;
  j.add('dangerous', 'system.modify', 'system', `${inv.name} ${a.join(' ')} changes what the system has mounted or loaded`);
});
