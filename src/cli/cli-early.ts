import { startEmbeddedEarly } from '../database/embedded/embedded-postgres.early-start';

/** Help and a bare call need no database; every command does. */
const argv = process.argv.slice(2);
const [name] = argv;
const onlyHelp = name === undefined || name.startsWith('-') || name === 'help';
if (!onlyHelp && !argv.includes('--help') && !argv.includes('-h')) startEmbeddedEarly();
