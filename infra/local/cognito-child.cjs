// Runs cognito-local (argv[2] = its start script) and exits when the twin that forked it goes away, even after a
// SIGKILL of the twin: the IPC channel closes, so no orphan keeps the port or the identity files.
process.on('disconnect', () => process.exit(0));

// cognito-local signs tokens with the key pair in its npm package, which anyone has. The twin hands it the data folder's
// own pair instead: both key modules are put in the require cache before cognito-local loads them.
const Module = require('node:module');
const keyFile = process.env.IWS_COGNITO_KEY_FILE;
if (!keyFile) throw new Error('IWS_COGNITO_KEY_FILE is not set: cognito-local would sign with its published key');
const key = JSON.parse(require('node:fs').readFileSync(keyFile, 'utf8'));
const preload = (filename, exports) => {
  const module = new Module(filename);
  module.filename = filename;
  module.loaded = true;
  module.exports = exports;
  require.cache[filename] = module;
};
preload(process.env.IWS_COGNITO_PRIVATE_MODULE, { jwk: key.jwk, pem: key.pem });
preload(process.env.IWS_COGNITO_PUBLIC_MODULE, { jwk: key.jwk });

// Confirmation codes: cognito-local draws them with Math.random (or takes them from $CODE); these come from the OS's
// cryptographic generator.
const crypto = require('node:crypto');
const path = require('node:path');
const lib = path.join(path.dirname(process.argv[2]), '..');
const resolveLib = (file) => require.resolve(path.join(lib, file));
preload(resolveLib('services/otp.js'), { otp: () => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0') });

// What Cognito would e-mail (a password reset code) is kept in the twin's mail folder as the functions' mail is
// (docs/local-twin.md#mail): one JSON file per message, never printed to the console.
const mailDir = process.env.IWS_MAIL_DIR;
if (mailDir) {
  const fs = require('node:fs');
  const escapeHtml = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const deliver = (user, destination, code) => {
    const at = new Date().toISOString();
    const id = `${at.replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}`;
    const subject = 'Your Imaging Workspace password reset code';
    const text = [
      'Hello,',
      '',
      `Your password reset code is ${code}.`,
      '',
      'Enter it on the sign-in page with your new password. If you did not ask to reset your password, ignore this e-mail.',
    ].join('\n');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head><body style="font-family:Arial,Helvetica,sans-serif"><p>Hello,</p><p>Your password reset code is <strong>${escapeHtml(code)}</strong>.</p><p>Enter it on the sign-in page with your new password. If you did not ask to reset your password, ignore this e-mail.</p></body></html>`;
    const message = {
      id,
      at,
      from: 'no-reply@imaging.local',
      to: destination,
      subject,
      text,
      html,
      tag: 'password-reset',
    };
    fs.mkdirSync(mailDir, { recursive: true });
    const file = path.join(mailDir, `${id}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(message, null, 2));
    fs.renameSync(`${file}.tmp`, file);
  };
  class MailFolderSender {
    async sendEmail(_ctx, user, destination, message) {
      deliver(user, destination, message.__code);
    }
    async sendSms() {
      // The pool has no SMS: nothing to deliver.
    }
  }
  preload(resolveLib('services/messageDelivery/consoleMessageSender.js'), { ConsoleMessageSender: MailFolderSender });
}

// A reset code may be guessed wrong MAX_CODE_ATTEMPTS times; then it is void and only a new ForgotPassword gives
// another (Cognito's LimitExceededException). The count lives on the user record, so a restart does not reset it.
// Both operations run one at a time, so parallel guesses cannot read the same count.
const MAX_CODE_ATTEMPTS = 5;
const { CognitoError, CodeMismatchError } = require(resolveLib('errors.js'));
let queue = Promise.resolve();
const oneAtATime = (task) => {
  const run = queue.then(task);
  queue = run.catch(() => undefined);
  return run;
};
const wrapTarget = (file, name, wrap) => {
  const resolved = resolveLib(file);
  const original = require(resolved)[name];
  preload(resolved, { [name]: (services) => wrap(services, original(services)) });
};
const userOf = async (services, ctx, req) => {
  const pool = await services.cognito.getUserPoolForClientId(ctx, req.ClientId);
  return { pool, user: await pool.getUserByUsername(ctx, req.Username) };
};
wrapTarget(
  'targets/forgotPassword.js',
  'ForgotPassword',
  (services, forgot) => (ctx, req) =>
    oneAtATime(async () => {
      const result = await forgot(ctx, req);
      const { pool, user } = await userOf(services, ctx, req);
      if (user) await pool.saveUser(ctx, { ...user, IwsCodeFailures: 0 });
      return result;
    }),
);
wrapTarget(
  'targets/confirmForgotPassword.js',
  'ConfirmForgotPassword',
  (services, confirm) => (ctx, req) =>
    oneAtATime(async () => {
      const before = await userOf(services, ctx, req);
      if (before.user && (before.user.IwsCodeFailures ?? 0) >= MAX_CODE_ATTEMPTS)
        throw new CognitoError('LimitExceededException', 'Attempt limit exceeded, please try after some time.');
      try {
        return await confirm(ctx, req);
      } catch (error) {
        if (error instanceof CodeMismatchError && before.user) {
          const { pool, user } = await userOf(services, ctx, req);
          const failures = (user.IwsCodeFailures ?? 0) + 1;
          await pool.saveUser(ctx, {
            ...user,
            IwsCodeFailures: failures,
            ...(failures >= MAX_CODE_ATTEMPTS ? { ConfirmationCode: undefined } : {}),
          });
        }
        throw error;
      }
    }),
);

// AdminSetUserMFAPreference, which cognito-local lacks: an administrator resets a user's second factor
// (docs/roles-and-permissions.md#two-factor-reset). It changes the user's enabled methods as SetUserMFAPreference does,
// by pool and username instead of the user's own access token. The operation is an admin one: the twin's gate lets
// only internal callers reach it (internal-gate.ts).
const { Targets } = require(resolveLib('targets/targets.js'));
const { UserNotFoundError, InvalidParameterError } = require(resolveLib('errors.js'));
Targets.AdminSetUserMFAPreference =
  ({ cognito }) =>
  async (ctx, req) => {
    if (!req.UserPoolId || !req.Username) throw new InvalidParameterError('Missing required parameter Username');
    const pool = await cognito.getUserPool(ctx, req.UserPoolId);
    const user = await pool.getUserByUsername(ctx, req.Username);
    if (!user) throw new UserNotFoundError();
    const methods = new Set(user.UserMFASettingList ?? []);
    const change = (name, settings) => {
      if (!settings) return;
      if (settings.Enabled && name === 'SOFTWARE_TOKEN_MFA' && !user.SoftwareTokenMfaConfiguration?.Verified)
        throw new InvalidParameterError('User has not verified software token MFA');
      if (settings.Enabled) methods.add(name);
      else methods.delete(name);
    };
    change('SMS_MFA', req.SMSMfaSettings);
    change('SOFTWARE_TOKEN_MFA', req.SoftwareTokenMfaSettings);
    const preferred = req.SMSMfaSettings?.PreferredMfa
      ? 'SMS_MFA'
      : req.SoftwareTokenMfaSettings?.PreferredMfa
        ? 'SOFTWARE_TOKEN_MFA'
        : methods.has(user.PreferredMfaSetting)
          ? user.PreferredMfaSetting
          : undefined;
    await pool.saveUser(ctx, { ...user, UserMFASettingList: [...methods], PreferredMfaSetting: preferred });
    return {};
  };

// AdminUserGlobalSignOut, which cognito-local lacks: an administrator's role change or disable signs the user out
// everywhere (docs/roles-and-permissions.md). Cognito invalidates the user's refresh tokens; so does this, by pool and
// username. Already issued ID and access tokens stay valid until they expire, as in Cognito. An admin operation: only
// internal callers reach it (internal-gate.ts).
Targets.AdminUserGlobalSignOut =
  ({ cognito }) =>
  async (ctx, req) => {
    if (!req.UserPoolId || !req.Username) throw new InvalidParameterError('Missing required parameter Username');
    const pool = await cognito.getUserPool(ctx, req.UserPoolId);
    const user = await pool.getUserByUsername(ctx, req.Username);
    if (!user) throw new UserNotFoundError();
    await pool.saveUser(ctx, { ...user, RefreshTokens: [] });
    return {};
  };

// The user pool's identity providers, which cognito-local lacks: hospitals connect their OIDC providers on the SSO tab
// (docs/sso.md) through Create/Describe/Update/DeleteIdentityProvider. Kept in the pool's folder as Cognito keeps
// them; admin operations, so only internal callers reach them (internal-gate.ts). Signing in through them is the
// stand-in's hosted login (hosted-login.ts, docs/local-twin.md#single-sign-on).
{
  const fs = require('node:fs');
  const file = path.join(process.cwd(), 'identity-providers.json');
  const read = () => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});
  const write = (all) => {
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(all, null, 2));
    fs.renameSync(`${file}.tmp`, file);
  };
  const keyOf = (req) => {
    if (!req.UserPoolId || !req.ProviderName)
      throw new InvalidParameterError('Missing required parameter ProviderName');
    return `${req.UserPoolId}/${req.ProviderName}`;
  };
  const notFound = () => new CognitoError('ResourceNotFoundException', 'Identity provider does not exist.');
  const shape = (req, existing) => ({
    UserPoolId: req.UserPoolId,
    ProviderName: req.ProviderName,
    ProviderType: req.ProviderType ?? existing?.ProviderType,
    ProviderDetails: req.ProviderDetails ?? existing?.ProviderDetails ?? {},
    AttributeMapping: req.AttributeMapping ?? existing?.AttributeMapping ?? {},
    IdpIdentifiers: req.IdpIdentifiers ?? existing?.IdpIdentifiers ?? [],
    CreationDate: existing?.CreationDate ?? new Date().getTime() / 1000,
    LastModifiedDate: new Date().getTime() / 1000,
  });
  Targets.CreateIdentityProvider = () => async (_ctx, req) =>
    oneAtATime(async () => {
      const all = read();
      const key = keyOf(req);
      if (all[key]) throw new CognitoError('DuplicateProviderException', 'A provider with this name exists.');
      all[key] = shape(req);
      write(all);
      return { IdentityProvider: all[key] };
    });
  Targets.DescribeIdentityProvider = () => async (_ctx, req) => {
    const found = read()[keyOf(req)];
    if (!found) throw notFound();
    return { IdentityProvider: found };
  };
  Targets.UpdateIdentityProvider = () => async (_ctx, req) =>
    oneAtATime(async () => {
      const all = read();
      const key = keyOf(req);
      if (!all[key]) throw notFound();
      all[key] = shape(req, all[key]);
      write(all);
      return { IdentityProvider: all[key] };
    });
  Targets.DeleteIdentityProvider = () => async (_ctx, req) =>
    oneAtATime(async () => {
      const all = read();
      const key = keyOf(req);
      if (!all[key]) throw notFound();
      delete all[key];
      write(all);
      return {};
    });
}

// A federated user as Cognito makes one at a first sign-in through an identity provider (docs/local-twin.md#single-sign-on):
// named `<provider name>_<subject>`, which cognito-local's AdminCreateUser refuses in a pool whose usernames are
// e-mails (it would name the user by a new sub). The stand-in's hosted login calls it; an admin operation, so only
// internal callers reach it (internal-gate.ts).
{
  const { UsernameExistsError } = require(resolveLib('errors.js'));
  Targets.IwsAdminCreateExternalUser =
    ({ cognito }) =>
    async (ctx, req) => {
      if (!req.UserPoolId || !/^[^_@]+_[^@]+$/.test(req.Username ?? ''))
        throw new InvalidParameterError('Username must be <provider name>_<subject>');
      const pool = await cognito.getUserPool(ctx, req.UserPoolId);
      if (await pool.getUserByUsername(ctx, req.Username)) throw new UsernameExistsError();
      const now = new Date();
      await pool.saveUser(ctx, {
        Username: req.Username,
        Attributes: [{ Name: 'sub', Value: crypto.randomUUID() }, ...(req.UserAttributes ?? [])].sort((a, b) =>
          a.Name.localeCompare(b.Name),
        ),
        Enabled: true,
        UserStatus: 'EXTERNAL_PROVIDER',
        UserCreateDate: now,
        UserLastModifiedDate: now,
        RefreshTokens: [],
      });
      return {};
    };
}

require(process.argv[2]);
