// swagger-ui-dist ships no typings. Its index requires the whole UI bundle; absolute-path.js is
// all the gateway needs (where the static assets live).
declare module 'swagger-ui-dist/absolute-path.js' {
  const getAbsoluteFSPath: () => string;
  export = getAbsoluteFSPath;
}
