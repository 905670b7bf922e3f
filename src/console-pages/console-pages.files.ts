import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where `npm run build:console` puts the operators' console (Vite's output). The same two levels
 * up from this file in src/ (ts-node, the tests) and in dist/ (the built server), so one path
 * serves both; the image copies console/dist beside dist/.
 */
export const CONSOLE_DIST = join(__dirname, '..', '..', 'console', 'dist');
export const CONSOLE_ASSETS = join(CONSOLE_DIST, 'assets');
export const CONSOLE_INDEX = join(CONSOLE_DIST, 'index.html');

export const consoleBuilt = (): boolean => existsSync(CONSOLE_INDEX);
