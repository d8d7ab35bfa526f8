#!/usr/bin/env node
// One render floor in a process of its own (lib.mjs renderFloor): the arguments of
// renderFloorHere as JSON on stdin, its answer as JSON on stdout.
process.env.NODE_ENV = 'production'; // React's production build, as the server runs it
const { renderFloorHere } = await import('./lib.mjs');
let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const { checkout, base, urls, options } = JSON.parse(input);
process.stdout.write(JSON.stringify(await renderFloorHere(checkout, base, urls, options)));
