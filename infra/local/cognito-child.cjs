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

require(process.argv[2]);
