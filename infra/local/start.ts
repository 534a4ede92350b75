/**
 * `npm start`: the local twin on PORT (default 3000) with everything kept under DATA_DIR (default .data/).
 * Prints the URL and the demo accounts; a clash (port taken, data folder in use) is one line and an exit code.
 * `npm start -- --oidc-test-provider` (or OIDC_TEST_PROVIDER=1) also starts a test OpenID Connect provider on
 * OIDC_TEST_PROVIDER_PORT (default 3100) with two accounts, to try single sign-on by hand (docs/local-twin.md#single-sign-on).
 */
import { join, relative } from 'node:path';
import { DEMO_USERS } from './seed/demo-data.ts';
import type { TestOidcProvider } from './oidc-test-provider.ts';
import { EXIT_CODES, LocalStackError } from './data-dir.ts';
import { startLocalStack } from './stack.ts';

async function main(): Promise<number> {
  const port = process.env.PORT ? Number.parseInt(process.env.PORT, 10) : 3000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`Invalid PORT "${process.env.PORT}": give a number between 0 and 65535.\n`);
    return 2;
  }
  const dataDir = process.env.DATA_DIR || '.data';
  const pipelineConcurrency = process.env.PIPELINE_CONCURRENCY
    ? Number.parseInt(process.env.PIPELINE_CONCURRENCY, 10)
    : 1;
  if (!Number.isInteger(pipelineConcurrency) || pipelineConcurrency < 1) {
    process.stderr.write(
      `Invalid PIPELINE_CONCURRENCY "${process.env.PIPELINE_CONCURRENCY}": give a whole number of at least 1.\n`,
    );
    return 2;
  }
  // The DICOM listener's port (docs/dicom-intake.md#dicom-nodes): 11112 unless DICOM_PORT says otherwise.
  const dicomPort = process.env.DICOM_PORT ? Number.parseInt(process.env.DICOM_PORT, 10) : 11112;
  if (!Number.isInteger(dicomPort) || dicomPort < 1 || dicomPort > 65535 || dicomPort === port) {
    process.stderr.write(`Invalid DICOM_PORT "${process.env.DICOM_PORT}": give a port other than PORT.\n`);
    return 2;
  }
  const withOidcProvider = process.argv.includes('--oidc-test-provider') || process.env.OIDC_TEST_PROVIDER === '1';
  const oidcPort = process.env.OIDC_TEST_PROVIDER_PORT
    ? Number.parseInt(process.env.OIDC_TEST_PROVIDER_PORT, 10)
    : 3100;
  if (withOidcProvider && (!Number.isInteger(oidcPort) || oidcPort < 1 || oidcPort > 65535 || oidcPort === port)) {
    process.stderr.write(
      `Invalid OIDC_TEST_PROVIDER_PORT "${process.env.OIDC_TEST_PROVIDER_PORT}": give a port other than PORT.\n`,
    );
    return 2;
  }
  const started = Date.now();
  const stack = await startLocalStack({
    dataDir,
    port,
    host: process.env.HOST || '127.0.0.1',
    demoPassword: process.env.DEMO_PASSWORD || undefined,
    pipelineConcurrency,
    dicomPort,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const passwordPath = join(stack.dataDir, 'demo-password');
  const passwordFile = relative(process.cwd(), passwordPath).startsWith('..')
    ? passwordPath
    : relative(process.cwd(), passwordPath);
  const passwordLine = process.env.DEMO_PASSWORD
    ? 'password: the value of DEMO_PASSWORD'
    : stack.demoPasswordCreated
      ? `password: ${stack.demoPassword}   (generated now, kept in ${passwordFile})`
      : `password: in ${passwordFile}`;
  let oidc: { provider: TestOidcProvider; lines: string[] } | undefined;
  if (withOidcProvider) {
    // Loaded only when asked for: oidc-provider prints its development notices as it loads.
    const { startTestOidcProvider, TEST_OIDC_MEMBER, TEST_OIDC_USER } = await import('./oidc-test-provider.ts');
    try {
      const provider = await startTestOidcProvider({
        redirectUri: `${stack.url}/_aws/cognito/oauth2/idpresponse`,
        others: [TEST_OIDC_MEMBER],
        port: oidcPort,
      });
      oidc = { provider, lines: oidcLines(provider, [TEST_OIDC_USER, TEST_OIDC_MEMBER]) };
    } catch (error) {
      await stack.stop();
      process.stderr.write(
        `The test OpenID Connect provider could not listen on port ${oidcPort} (${(error as Error).message}): set OIDC_TEST_PROVIDER_PORT.\n`,
      );
      return 2;
    }
  }
  const width = Math.max(...DEMO_USERS.map((u) => u.email.length));
  process.stdout.write(
    [
      '',
      `Imaging Workspace local twin ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${stack.url}`,
      `Data folder: ${stack.dataDir}`,
      `DICOM listener (C-STORE, called AE title IWS-INTAKE): port ${dicomPort}`,
      `Demo accounts (${passwordLine}):`,
      ...DEMO_USERS.map((u) => `  ${u.email.padEnd(width)}  ${u.role}`),
      ...(oidc?.lines ?? []),
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the local twin…\n`);
    Promise.all([stack.stop(), oidc?.provider.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return new Promise<number>(() => undefined);
}

/** What a person types into Northside's SSO tab, and the accounts the provider's login form takes. */
function oidcLines(
  oidc: TestOidcProvider,
  accounts: readonly { login: string; email: string; groups: readonly string[] }[],
): string[] {
  const first = accounts[0]!.email;
  const domain = first.slice(first.indexOf('@') + 1);
  return [
    `Test OpenID Connect provider: ${oidc.issuer}`,
    `  SSO tab (as admin@northside.demo.local): issuer ${oidc.issuer}, client id ${oidc.clientId},`,
    `  client secret ${oidc.clientSecret}, e-mail domain ${domain}, map radiology-leads to a role`,
    '  Accounts (login name on its form, any password):',
    ...accounts.map((u) => `    ${u.login.padEnd(10)}  ${u.email}  groups: ${u.groups.join(', ')}`),
  ];
}

main().catch((error: unknown) => {
  if (error instanceof LocalStackError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`The local twin could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(EXIT_CODES.START_FAILED);
});
