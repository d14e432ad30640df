// The broker node loss test (npm run test:cluster): a RabbitMQ cluster of three extra nodes and a
// whole platform on it; minutes long, so not part of the e2e run.
module.exports = {
  ...require('../../../jest.preset.js'),
  rootDir: __dirname,
  testTimeout: 900000,
  // The launcher and the cluster kill every process they started when this process exits.
  forceExit: true,
};
