/**
 * The machine itself: formatting or wiping disks, users, firewall, scheduled jobs, kernel settings and
 * mounts. Processes and power are in processes.ts, services in services.ts.
 */
import type { Invocation, Judgement } from '../judgement.ts';
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
  // `-v`/`-V` mean verbose to mkfs and most of its children: only an explicit version or help request creates nothing.
  if (/^(?:mkfs|mke2fs|mkswap|mkdosfs|mkfs_msdos|mkntfs|mkexfat|mkreiserfs|mkudffs|mkhfs|newfs|mkbtrfs)/.test(name) && !has('--version', '-h', '--help') && !(a.length === 1 && a[0] === '-v')) return why('creates a new file system, erasing the old one');
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
  // A dataset (and with -r its children) is a file system like a volume; a snapshot or a rollback loses less.
  if (name === 'zfs' && has('destroy') && a.some((x) => /^-\w*n/.test(x))) return;
  if (name === 'zfs' && has('destroy') && a.some((x) => /^-\w*[rR]/.test(x) || (!x.startsWith('-') && x !== 'destroy' && !x.includes('@')))) return why('destroys a dataset and every file in it');
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

/** Tools that copy or wipe whole devices: refused when a device is their target. */
register(['ddrescue', 'dcfldd', 'dc3dd', 'nwipe', 'bmaptool', 'etcher', 'etcher-cli', 'balena-etcher', 'sg_sanitize', 'sg_format', 'pvcreate', 'diskpart', 'diskpart.exe', 'format.com', 'secure-delete', 'sfill', 'wipe-disk'], (inv, j) => {
  const a = texts(inv.args);
  if (a.some((x) => ['--help', '-h', '--version', '-V'].includes(x)) && a.length === 1) return;
  const devices = a.map((x) => x.replace(/^(?:of|hof|wipe|ofs)=/, '')).filter((x) => /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|md|dm-|sg|loop|root)/.test(x) || /^[A-Za-z]:$/.test(x));
  const windows = /^(?:diskpart|diskpart\.exe|format\.com)$/.test(inv.name);
  if (windows || ['nwipe', 'sg_sanitize', 'sfill'].includes(inv.name) || (inv.name === 'ddrescue' ? devices.includes(a.filter((x) => !x.startsWith('-'))[1] ?? '') : devices.length > 0)) {
    hard(j, 'disk.destroy', 'disk', `${inv.name} ${a.join(' ')} overwrites a whole disk`);
  }
});

// ── users, firewall, schedules ──
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
