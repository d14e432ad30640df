// swagger-ui-dist ships no typings; the gateway only needs where its static assets live.
declare module 'swagger-ui-dist' {
  export function getAbsoluteFSPath(): string;
}
