import { writeFileSync } from 'node:fs';
import { startServer } from '../e2e-support.ts';
const s = await startServer();
writeFileSync('/tmp/e2e-url', s.baseUrl);
console.log('listening', s.baseUrl);
setInterval(() => {}, 1 << 30);
