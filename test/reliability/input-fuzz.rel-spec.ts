import { describeInputFuzz } from '../support/input-fuzz.suite';

// A new seed each run (printed with the way to replay it), and many more strings per route.
describeInputFuzz(Date.now() % 2 ** 31, Number(process.env.FUZZ_RUNS ?? 400));
