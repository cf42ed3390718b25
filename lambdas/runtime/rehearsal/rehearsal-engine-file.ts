/** The rehearsal engine's file name beside a rehearsing task's handler (rehearsal-engine.ts; TaskFunction builds it). */
export const REHEARSAL_ENGINE_FILE = 'rehearsal-engine.js';
