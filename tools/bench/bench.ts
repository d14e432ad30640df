// Filled in with the domains benchmark.
console.log('bench: not yet');
