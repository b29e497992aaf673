import { z } from 'zod';

// Imported first by the bundle of every command that parses one input and exits (scripts/build.mjs):
// zod then builds its schemas without compiling a parser for each (new Function), which costs such
// a command more (~5 ms) than it could ever save. Servers and bulk commands keep the compiled parsers.
z.config({ jitless: true });
