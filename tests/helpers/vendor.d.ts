// Minimal types for the test dependencies that ship none.
declare module 'xhr2' {
  /** An XMLHttpRequest for node (the browser's API over node:http). */
  const XMLHttpRequest: unknown;
  export default XMLHttpRequest;
}
