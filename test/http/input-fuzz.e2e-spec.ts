import { describeInputFuzz } from '../support/input-fuzz.suite';

// A fixed seed in `npm test`; `npm run test:reliability` draws a new seed and runs far longer.
describeInputFuzz(20261123, Number(process.env.FUZZ_RUNS ?? 25));
