/** `deno run` / `bun` entry: runs {@link smoke} against the URL in the first argument and prints its statuses. */
import { smoke } from './smoke';

const g = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
const url = g.Deno ? g.Deno.args[0] : g.process?.argv[2];
console.log(JSON.stringify(await smoke(url!)));
