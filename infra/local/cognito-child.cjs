// Runs cognito-local (argv[2] = its start script) and exits when the twin that forked it goes away, even after a
// SIGKILL of the twin: the IPC channel closes, so no orphan keeps the port or the identity files.
process.on('disconnect', () => process.exit(0));
require(process.argv[2]);
