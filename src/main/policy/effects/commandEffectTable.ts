// The programs commandEffects.ts knows, with the options that write or run (GNU coreutils, tree,
// file, find, curl, wget, rg, tar; git and the language toolchains are in toolchainEffects.ts, the
// package managers that can install outside the project in installEffects.ts).
// Each syntax lists every option that takes a value, so a value is never read as an option or an
// operand; a value-taking option left out only ever makes Baton see more writes, never fewer.

import { CWD, has, literal, operandsOr, optionValues, READS_OPTIONS, within, type EffectSink, type ProgramSpec } from "./effectSpec.js";
import { mayBeOption, scanOptions, type Scan } from "./optionScan.js";
import type { ShellWord } from "../shell/shellWords.js";
import { INSTALLERS } from "./installEffects.js";
import { PACKAGE_MANAGERS } from "./packageManagerEffects.js";
import { TOOLCHAINS } from "./toolchainEffects.js";

const sort: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "kotST",
    longValued: ["key", "output", "buffer-size", "field-separator", "temporary-directory", "random-source", "batch-size", "compress-program", "files0-from", "parallel", "sort"],
    abbreviates: ["output", "temporary-directory", "compress-program", "check", "key", "sort", "stable", "random-source", "random-sort", "reverse", "merge", "unique"],
  },
  // `-T`: its temporary files go there.
  writes: ["-o", "--output", "-T", "--temporary-directory"],
  runs: ["--compress-program"],
};

const uniq: ProgramSpec = {
  syntax: { style: "gnu", valued: "fsw", longValued: ["skip-fields", "skip-chars", "check-chars"], abbreviates: ["skip-fields", "skip-chars", "check-chars", "count", "repeated", "all-repeated", "group", "unique"] },
  // `uniq IN OUT` writes OUT. Every operand after the first counts, so that an option whose value
  // Baton misread cannot hide the output among the operands.
  then: (scan, sink) => {
    for (const operand of [...scan.operands, ...scan.afterDashes].slice(1)) sink.write("operand", operand);
  },
};

const tree: ProgramSpec = {
  syntax: { style: "next-word", valued: "PIHToL", longValued: ["filelimit", "charset", "timefmt", "sort", "gitfile", "infofile", "hintro", "houtro", "scheme", "authority"] },
  writes: ["-o"],
  // `-R` runs tree again in each folder with `-o 00Tree.html`.
  then: (scan, sink) => {
    if (has(scan, "-R")) for (const dir of operandsOr(scan, CWD)) sink.write("implicit", dir);
  },
};

const file: ProgramSpec = {
  syntax: { style: "gnu", valued: "fFmeP", longValued: ["files-from", "separator", "magic-file", "exclude", "exclude-quiet", "parameter"], abbreviates: ["compile", "files-from", "magic-file"] },
  // `-C` compiles the magic file into `<name>.mgc` in the cwd.
  then: (scan, sink) => {
    if (has(scan, "-C", "--compile")) sink.write("implicit", CWD);
  },
};

const copying = (moves: boolean): ProgramSpec => ({
  syntax: { style: "gnu", valued: "St", longValued: ["suffix", "target-directory", "sparse", "no-preserve", "context"], abbreviates: ["target-directory", "suffix", "no-target-directory"] },
  writes: ["-t", "--target-directory"],
  then: (scan, sink) => {
    const operands = [...scan.operands, ...scan.afterDashes];
    // mv empties its sources; cp and ln write the last operand unless `-t` names the folder.
    if (moves) for (const operand of operands) sink.write("operand", operand);
    else if (!has(scan, "-t", "--target-directory")) sink.write("operand", operands.length === 1 ? CWD : operands.at(-1));
  },
});

const everyOperand = (valued: string, longValued: readonly string[]): ProgramSpec => ({
  syntax: { style: "gnu", valued, longValued },
  then: (scan, sink) => {
    for (const operand of [...scan.operands, ...scan.afterDashes]) sink.write("operand", operand);
  },
});

// Every long option of curl (docs/options-in-versions, to 8.17): any of them may be abbreviated.
const CurlLongOptions: readonly string[] = [
  ...["abstract-unix-socket", "alt-svc", "anyauth", "append", "aws-sigv4", "basic", "ca-native", "cacert", "capath", "cert", "cert-status", "cert-type", "ciphers", "compressed", "compressed-ssh", "config", "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-dirs", "create-file-mode", "crlf", "crlfile", "curves"],
  ...["data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation", "digest", "disable", "disable-eprt", "disable-epsv", "disallow-username-in-url", "dns-interface", "dns-ipv4-addr", "dns-ipv6-addr", "dns-servers", "doh-cert-status", "doh-insecure", "doh-url", "dump-ca-embed", "dump-header"],
  ...["ech", "egd-file", "engine", "etag-compare", "etag-save", "expect100-timeout", "fail", "fail-early", "fail-with-body", "false-start", "follow", "form", "form-escape", "form-string", "ftp-account", "ftp-alternative-to-user", "ftp-create-dirs", "ftp-method", "ftp-pasv", "ftp-port", "ftp-pret", "ftp-skip-pasv-ip", "ftp-ssl-ccc", "ftp-ssl-ccc-mode", "ftp-ssl-control"],
  ...["get", "globoff", "happy-eyeballs-timeout-ms", "haproxy-clientip", "haproxy-protocol", "head", "header", "help", "hostpubmd5", "hostpubsha256", "hsts", "http0.9", "http1.0", "http1.1", "http2", "http2-prior-knowledge", "http3", "http3-only", "ignore-content-length", "insecure", "interface", "ip-tos", "ipfs-gateway", "ipv4", "ipv6"],
  ...["json", "junk-session-cookies", "keepalive-cnt", "keepalive-time", "key", "key-type", "knownhosts", "krb", "libcurl", "limit-rate", "list-only", "local-port", "location", "location-trusted", "login-options", "mail-auth", "mail-from", "mail-rcpt", "mail-rcpt-allowfails", "manual", "max-filesize", "max-redirs", "max-time", "metalink", "mptcp"],
  ...["negotiate", "netrc", "netrc-file", "netrc-optional", "next", "no-alpn", "no-buffer", "no-clobber", "no-keepalive", "no-npn", "no-progress-meter", "no-sessionid", "noproxy", "ntlm", "ntlm-wb", "oauth2-bearer", "out-null", "output", "output-dir", "parallel", "parallel-immediate", "parallel-max", "parallel-max-host", "pass", "path-as-is", "pinnedpubkey"],
  ...["post301", "post302", "post303", "preproxy", "progress-bar", "proto", "proto-default", "proto-redir", "proxy", "proxy-anyauth", "proxy-basic", "proxy-ca-native", "proxy-cacert", "proxy-capath", "proxy-cert", "proxy-cert-type", "proxy-ciphers", "proxy-crlfile", "proxy-digest", "proxy-header", "proxy-http2", "proxy-insecure", "proxy-key", "proxy-key-type"],
  ...["proxy-negotiate", "proxy-ntlm", "proxy-pass", "proxy-pinnedpubkey", "proxy-service-name", "proxy-ssl-allow-beast", "proxy-ssl-auto-client-cert", "proxy-tls13-ciphers", "proxy-tlsauthtype", "proxy-tlspassword", "proxy-tlsuser", "proxy-tlsv1", "proxy-user", "proxy1.0", "proxytunnel", "pubkey", "quote", "random-file", "range", "rate", "raw", "referer"],
  ...["remote-header-name", "remote-name", "remote-name-all", "remote-time", "remove-on-error", "request", "request-mode", "request-target", "resolve", "retry", "retry-all-errors", "retry-connrefused", "retry-delay", "retry-max-time", "sasl-authzid", "sasl-ir", "service-name", "show-error", "show-headers", "sigalgs", "silent", "skip-existing"],
  ...["socks4", "socks4a", "socks5", "socks5-basic", "socks5-gssapi", "socks5-gssapi-nec", "socks5-gssapi-service", "socks5-hostname", "speed-limit", "speed-time", "ssl", "ssl-allow-beast", "ssl-auto-client-cert", "ssl-no-revoke", "ssl-reqd", "ssl-revoke-best-effort", "ssl-sessions", "sslv2", "sslv3", "stderr", "styled-output"],
  ...["suppress-connect-headers", "tcp-fastopen", "tcp-nodelay", "telnet-option", "tftp-blksize", "tftp-no-options", "time-cond", "tls-earlydata", "tls-max", "tls13-ciphers", "tlsauthtype", "tlspassword", "tlsuser", "tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2", "tlsv1.3", "tr-encoding", "trace", "trace-ascii", "trace-config", "trace-ids", "trace-time"],
  ...["unix-socket", "upload-file", "upload-flags", "url", "url-query", "use-ascii", "user", "user-agent", "variable", "verbose", "version", "vlan-priority", "write-out", "xattr"],
];

const curl: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "EKCbcdDFPHmoUQreXYytzTuAwx",
    longValued: [
      ...["cert", "config", "continue-at", "cookie", "cookie-jar", "data", "dump-header", "form", "ftp-port", "header", "max-time", "output", "proxy-user", "quote", "range", "referer", "request", "speed-limit", "speed-time", "telnet-option", "time-cond", "upload-file", "user", "user-agent", "write-out", "proxy"],
      ...["abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert-type", "ciphers", "connect-timeout", "connect-to", "create-file-mode", "crlfile", "curves", "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation", "dns-interface", "dns-ipv4-addr", "dns-ipv6-addr", "dns-servers", "doh-url", "ech", "egd-file", "engine", "etag-compare", "etag-save", "expect100-timeout", "form-string", "ftp-account", "ftp-alternative-to-user", "ftp-method", "ftp-ssl-ccc-mode", "happy-eyeballs-timeout-ms", "haproxy-clientip", "hostpubmd5", "hostpubsha256", "hsts", "interface", "ip-tos", "ipfs-gateway", "json", "keepalive-cnt", "keepalive-time", "key", "key-type", "knownhosts", "krb", "libcurl", "limit-rate", "local-port", "login-options", "mail-auth", "mail-from", "mail-rcpt", "max-filesize", "max-redirs", "netrc-file", "noproxy", "oauth2-bearer", "output-dir", "parallel-max", "parallel-max-host", "pass", "pinnedpubkey", "preproxy", "proto", "proto-default", "proto-redir", "proxy-cacert", "proxy-capath", "proxy-cert", "proxy-cert-type", "proxy-ciphers", "proxy-crlfile", "proxy-header", "proxy-key", "proxy-key-type", "proxy-pass", "proxy-pinnedpubkey", "proxy-service-name", "proxy-tls13-ciphers", "proxy-tlsauthtype", "proxy-tlspassword", "proxy-tlsuser", "pubkey", "random-file", "rate", "request-mode", "request-target", "resolve", "retry", "retry-delay", "retry-max-time", "sasl-authzid", "service-name", "sigalgs", "socks4", "socks4a", "socks5", "socks5-gssapi-service", "socks5-hostname", "ssl-sessions", "stderr", "tftp-blksize", "tls-max", "tls13-ciphers", "tlsauthtype", "tlspassword", "tlsuser", "trace", "trace-ascii", "trace-config", "unix-socket", "upload-flags", "url", "url-query", "variable", "vlan-priority"],
    ],
    // curl takes a long option's unambiguous prefix (`--output-d` for `--output-dir`): a prefix counts as every name it begins.
    abbreviates: CurlLongOptions,
  },
  writes: ["-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii", "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc", "--output-dir", "--ssl-sessions"],
  opaque: { "-K": READS_OPTIONS, "--config": READS_OPTIONS },
  environment: /^(?:CURL_HOME|XDG_CONFIG_HOME|HOME)$/,
  then: (scan, sink) => {
    // `-o f` lands in `--output-dir`'s folder when f is relative; `-o -` is standard output.
    const dir = optionValues(scan, "--output-dir")[0];
    for (const output of optionValues(scan, "-o", "--output")) if (output.dynamic || output.value !== "-") sink.write("option", within(dir, output));
    // `-O` saves under the URL's name, in the cwd or `--output-dir`.
    if (has(scan, "-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name")) sink.write("implicit", dir ?? CWD);
    for (const format of optionValues(scan, "-w", "--write-out")) {
      if (format.dynamic || format.value.includes("%output{")) sink.refuse(`curl --write-out \`${format.value}\` can name a file to write`);
    }
  },
};

const wget: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "eoaiBtOTwQPUlARDIX",
    longValued: [
      ...["execute", "output-file", "append-output", "input-file", "base", "tries", "output-document", "timeout", "wait", "quota", "directory-prefix", "user-agent", "level", "accept", "reject", "domains", "include-directories", "exclude-directories"],
      ...["report-speed", "config", "rejected-log", "retry-on-http-error", "start-pos", "progress", "dns-timeout", "connect-timeout", "read-timeout", "waitretry", "bind-address", "limit-rate", "restrict-file-names", "prefer-family", "user", "password", "use-askpass", "local-encoding", "remote-encoding", "cut-dirs", "http-user", "http-password", "default-page", "header", "compression", "proxy-user", "proxy-password", "referer", "load-cookies", "save-cookies", "post-data", "post-file", "method", "body-data", "body-file", "secure-protocol", "certificate", "certificate-type", "private-key", "private-key-type", "ca-certificate", "ca-directory", "crl-file", "pinnedpubkey", "ciphers", "ftp-user", "ftp-password", "warc-file", "warc-header", "warc-max-size", "warc-dedup", "warc-tempdir", "backups", "accept-regex", "reject-regex", "regex-type", "exclude-domains", "follow-tags", "ignore-tags", "hsts-file"],
    ],
    abbreviates: ["output-document", "output-file", "append-output", "directory-prefix", "save-cookies", "warc-file", "warc-tempdir", "rejected-log", "config", "execute", "use-askpass", "hsts-file"],
  },
  writes: ["-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix", "--save-cookies", "--warc-file", "--warc-tempdir", "--rejected-log", "--hsts-file"],
  runs: ["--use-askpass"],
  opaque: { "-e": "runs a .wgetrc command, which can change where wget writes", "--execute": "runs a .wgetrc command, which can change where wget writes", "--config": READS_OPTIONS },
  environment: /^(?:WGETRC|SYSTEM_WGETRC|HOME)$/,
  then: (scan, sink) => {
    const documents = optionValues(scan, "-O", "--output-document");
    for (const document of documents) if (document.dynamic || document.value !== "-") sink.write("option", document);
    // Without `-O`, what it downloads lands in the cwd (or `-P`'s folder, counted above).
    if (documents.length === 0 && !has(scan, "--spider") && !has(scan, "-P", "--directory-prefix")) sink.write("implicit", CWD);
  },
};

const rg: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "ABCEMTdefgjmrt",
    longValued: ["pre", "pre-glob", "hostname-bin", "regexp", "file", "glob", "iglob", "type", "type-not", "type-add", "type-clear", "max-depth", "max-count", "max-columns", "max-filesize", "context", "after-context", "before-context", "encoding", "engine", "replace", "threads", "color", "colors", "context-separator", "field-context-separator", "field-match-separator", "path-separator", "sort", "sortr", "ignore-file", "dfa-size-limit", "regex-size-limit", "hyperlink-format", "generate"],
  },
  runs: ["--pre", "--hostname-bin"],
  environment: /^RIPGREP_CONFIG_PATH$/,
};

const FindValued = new Set(["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-type", "-xtype", "-user", "-group", "-uid", "-gid", "-perm", "-size", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-newer", "-anewer", "-cnewer", "-used", "-inum", "-links", "-samefile", "-fstype", "-maxdepth", "-mindepth", "-printf", "-context", "-regextype", "-files0-from"]);
const FindRuns = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const FindWrites: Readonly<Record<string, number>> = { "-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2 };
/** A file find found, passed where `{}` stands: only known when it runs, never an option (it starts with a starting point). */
const found = (word: ShellWord): ShellWord => (word.value.includes("{}") ? { value: word.value, dynamic: true } : word);
const Visited: ShellWord = { value: "(each folder find visits)", dynamic: true };

/** `find [-H|-L|-P] [-D x] [-Ox] [starting points] [expression]`. */
function find(args: readonly ShellWord[], sink: EffectSink): void {
  let i = 0;
  while (i < args.length && !args[i]!.dynamic && /^-(?:[HLP]|O\d*|D)$/.test(args[i]!.value)) i += args[i]!.value === "-D" ? 2 : 1;
  const starts: ShellWord[] = [];
  for (; i < args.length && !mayBeOption(args[i]!) && !["(", "!", ","].includes(args[i]!.value); i++) starts.push(args[i]!);
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.dynamic) {
      if (mayBeOption(word)) sink.refuse(`\`${word.value}\` is only known when the shell runs, and in find's expression it could be \`-delete\` or \`-exec\``);
      continue;
    }
    const primary = word.value;
    if (FindValued.has(primary) || /^-newer[aBcmt]{2}$/.test(primary)) i++;
    else if (primary === "-delete") for (const start of starts.length > 0 ? starts : [CWD]) sink.write("option", start);
    else if (FindWrites[primary] !== undefined) {
      sink.write("option", args[i + 1]);
      i += FindWrites[primary]!;
    } else if (FindRuns.has(primary)) {
      const end = commandEnd(args, i + 1);
      sink.run(args.slice(i + 1, end).map(found), `find ${primary}`, primary.endsWith("dir") ? Visited : undefined);
      i = end;
    }
  }
}

/** Where `-exec`'s command ends: at `;`, or at `+` right after `{}`. */
function commandEnd(args: readonly ShellWord[], from: number): number {
  for (let j = from; j < args.length; j++) {
    const v = args[j]!;
    if (v.dynamic) continue;
    if (v.value === ";" || (v.value === "+" && j > from && args[j - 1]!.value === "{}")) return j;
  }
  return args.length;
}

const TarLong: Readonly<Record<string, string>> = { c: "create", r: "append", u: "update", A: "catenate", x: "extract", f: "file", C: "directory", I: "use-compress-program", F: "info-script", g: "listed-incremental" };
const TarRuns = "names a program for tar to run";

const tar: ProgramSpec = {
  syntax: {
    style: "gnu",
    valued: "bfCFgHIKLNTVX",
    longValued: ["file", "directory", "use-compress-program", "info-script", "new-volume-script", "listed-incremental", "to-command", "rsh-command", "checkpoint-action", "files-from", "exclude-from", "exclude", "format", "blocking-factor", "label", "starting-file", "newer", "after-date", "tape-length", "owner", "group", "mode", "transform", "xform"],
    abbreviates: ["create", "append", "update", "catenate", "concatenate", "extract", "get", "delete", "file", "directory", "use-compress-program", "to-command", "rsh-command", "info-script", "new-volume-script", "checkpoint-action", "remove-files", "force-local"],
  },
  custom: (args, sink) => {
    // `tar xzf a.tgz`: a first word without a dash is a cluster whose letters take the next words.
    const oldStyle = args[0] !== undefined && !args[0].dynamic && /^[A-Za-z]+$/.test(args[0].value);
    const words = oldStyle ? [literal(`-${args[0]!.value}`), ...args.slice(1)] : args;
    const scan = scanOptionsFor(words, oldStyle);
    if (scan.unknown !== undefined) sink.refuse(`\`${scan.unknown.value}\` is only known when the shell runs, and as an option of tar it could write files or run programs`);
    const named = (letter: string): string[] => [`-${letter}`, `--${TarLong[letter]}`];
    for (const runs of [...named("I"), ...named("F"), "--new-volume-script", "--to-command", "--rsh-command"]) if (has(scan, runs)) sink.refuse(`tar ${runs} ${TarRuns}`);
    for (const action of optionValues(scan, "--checkpoint-action")) if (action.dynamic || /exec/.test(action.value)) sink.refuse(`tar --checkpoint-action ${TarRuns}`);
    const archives = optionValues(scan, ...named("f"));
    for (const archive of archives) if (!archive.dynamic && /^[^/]*:/.test(archive.value) && !has(scan, "--force-local")) sink.refuse(`tar -f \`${archive.value}\` names an archive on another host, reached through a remote shell`);
    if (["c", "r", "u", "A"].some((m) => has(scan, ...named(m))) || has(scan, "--delete", "--concatenate")) {
      for (const archive of archives.length > 0 ? archives : [{ value: "$TAPE", dynamic: true }]) if (archive.dynamic || archive.value !== "-") sink.write("option", archive);
    }
    if (has(scan, ...named("x"), "--get")) sink.write("implicit", optionValues(scan, ...named("C")).at(-1) ?? CWD);
    for (const snapshot of optionValues(scan, ...named("g"))) sink.write("option", snapshot);
    if (has(scan, "--remove-files")) for (const operand of scan.operands) sink.write("operand", operand);
  },
};

function scanOptionsFor(words: readonly ShellWord[], oldStyle: boolean): Scan {
  const syntax = tar.syntax;
  return scanOptions(words, oldStyle ? { ...syntax, style: "next-word" } : syntax);
}

export const PROGRAMS: ReadonlyMap<string, ProgramSpec> = new Map<string, ProgramSpec>([
  ["sort", sort],
  ["uniq", uniq],
  ["tree", tree],
  ["file", file],
  ["cp", copying(false)],
  ["ln", copying(false)],
  ["mv", copying(true)],
  ["rm", everyOperand("", [])],
  ["rmdir", everyOperand("", [])],
  ["mkdir", everyOperand("m", ["mode"])],
  ["touch", everyOperand("drt", ["date", "reference", "time"])],
  ["curl", curl],
  ["wget", wget],
  ["rg", rg],
  ["find", { syntax: { style: "gnu" }, custom: find }],
  ["tar", tar],
  ...TOOLCHAINS,
  ...INSTALLERS,
  ...PACKAGE_MANAGERS,
]);
