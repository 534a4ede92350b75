#!/usr/bin/env node
// The reference tools the tests compare against (a missing one fails a test, never skips it). Run before the tests by
// `npm test` (pretest) and by .ci/run: it finds every tool; when some are missing it installs their Debian packages
// with apt-get if it runs as root, and otherwise stops at once with the install line to run. Plain Node, no
// dependencies, so it runs before `npm ci` too.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import process from 'node:process';

/**
 * One Debian package per entry, with what proves it is there. `bin` tools are looked for where the tests run them
 * (/usr/bin, Debian's place for them); `path` tools are found on PATH, as tests/helpers/reference-tools.ts does.
 */
const TOOLS = [
  { pkg: 'chromium', bin: ['chromium'], used: 'browser tests (tests/e2e)' },
  { pkg: 'dcm2niix', bin: ['dcm2niix'], used: 'NIfTI conversion and processing references' },
  {
    pkg: 'dcmtk',
    path: ['dcmdump', 'dcmconv', 'dcm2json', 'storescu', 'echoscu'],
    used: 'DICOM parsing and de-identification checks; C-STORE and C-ECHO peers of the DICOM listener',
  },
  { pkg: 'dicom3tools', bin: ['dciodvfy'], used: 'IOD validation of de-identified files (tests/integration)' },
  // Its dependency libgdcm3.0 also ships the PS3.3 rendering that scripts/generate-iod-types.ts reads.
  { pkg: 'libgdcm-tools', path: ['gdcmanon'], used: 'de-identification reference (bench/engine)' },
  { pkg: 'openssl', path: ['openssl'], used: "SAML providers' signing certificates (tests/helpers/saml-metadata.ts)" },
  // Debian installs the server in /usr/sbin and its DICOMweb plugin beside the others; the intake tests run their own
  // Orthanc process with that plugin (tests/helpers/orthanc.ts), never the system service.
  { pkg: 'orthanc', files: ['/usr/sbin/Orthanc'], used: 'DICOMweb and C-STORE peer (tests/integration/dicom-intake)' },
  {
    pkg: 'orthanc-dicomweb',
    files: ['/usr/share/orthanc/plugins/libOrthancDicomWeb.so'],
    used: 'DICOMweb peer: STOW-RS, QIDO-RS and WADO-RS client (tests/integration/dicom-intake)',
  },
  { pkg: 'poppler-utils', bin: ['pdftotext'], used: 'report text checks' },
  { pkg: 'python3-dipy', python: 'import dipy', used: 'tensor fit reference' },
  // Only recommended by python3-dipy, so --no-install-recommends leaves it out; the dipy comparisons load NIfTI with it.
  { pkg: 'python3-nibabel', python: 'import nibabel', used: 'tensor fit reference' },
];

// Test-only: a folder that stands in for /usr/bin and PATH, so a test can show what happens when tools are missing.
const BIN_OVERRIDE = process.env.IWS_REFERENCE_TOOLS_BIN;
const BIN = BIN_OVERRIDE ?? '/usr/bin';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function readable(path) {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  const dirs = BIN_OVERRIDE ? [BIN_OVERRIDE] : (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return dirs.some((dir) => executable(join(dir, command)));
}

function pythonCan(statement) {
  const python = join(BIN, 'python3');
  if (!executable(python)) return false;
  return spawnSync(python, ['-c', statement], { stdio: 'ignore', timeout: 60_000 }).status === 0;
}

/** What of a tool is missing, in words, or undefined when it is all there. */
function missingPart(tool) {
  if (tool.pkg === 'chromium' && process.env.CHROMIUM_PATH && !BIN_OVERRIDE) {
    // tests/e2e/browser.ts runs CHROMIUM_PATH when it is set.
    return executable(process.env.CHROMIUM_PATH) ? undefined : process.env.CHROMIUM_PATH;
  }
  const absent = [
    ...(tool.bin ?? []).map((name) => join(BIN, name)).filter((path) => !executable(path)),
    // Files at fixed Debian paths; under the test override they are looked for in its folder, by name.
    ...(tool.files ?? [])
      .map((path) => (BIN_OVERRIDE ? join(BIN_OVERRIDE, path.slice(path.lastIndexOf('/') + 1)) : path))
      .filter((path) => !readable(path)),
    ...(tool.path ?? []).filter((name) => !onPath(name)),
  ];
  if (tool.python && !pythonCan(tool.python)) absent.push(`${join(BIN, 'python3')} -c '${tool.python}'`);
  return absent.length ? absent.join(', ') : undefined;
}

function missingTools() {
  return TOOLS.flatMap((tool) => {
    const part = missingPart(tool);
    return part ? [{ ...tool, part }] : [];
  });
}

function installLine(packages, sudo) {
  const as = sudo ? 'sudo ' : '';
  return `${as}apt-get update && ${as}DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

function describe(missing) {
  return missing.map((tool) => `  ${tool.pkg}: ${tool.part} (${tool.used})`).join('\n');
}

function stop(missing, reason) {
  const root = process.getuid?.() === 0;
  process.stderr.write(
    `Reference tools the tests compare against are missing, and ${reason}:\n${describe(missing)}\n` +
      `Install them, then run the tests again:\n  ${installLine(
        missing.map((tool) => tool.pkg),
        !root,
      )}\n`,
  );
  process.exit(1);
}

const missing = missingTools();
if (missing.length === 0) process.exit(0);

if (process.getuid?.() !== 0) stop(missing, 'this is not root, so they cannot be installed here');
if (BIN_OVERRIDE || !onPath('apt-get')) stop(missing, 'apt-get is not available to install them');

const packages = missing.map((tool) => tool.pkg);
process.stdout.write(`Installing reference tools: ${packages.join(' ')}\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', '--no-install-recommends', ...packages],
]) {
  const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) stop(missing, `"apt-get ${args.join(' ')}" failed (exit ${result.status ?? result.signal})`);
}
const still = missingTools();
if (still.length) stop(still, 'installing their packages did not provide them');
