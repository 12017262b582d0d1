/**
 * The server process's entry (`npm start` runs its build, build/scripts/server-main.js;
 * `npm run start:dev` runs it with tsx): the server of server/main.ts, handed the demo
 * data's loader from here, so that nothing in server/ imports seed/ (the layers run
 * one way: seed/ and scripts/ stand on the server, never the reverse).
 */
import { runServer } from '../server/main.ts';

runServer({ demoSeeder: async () => (await import('../seed/demo-seeder.ts')).seedDemo });
