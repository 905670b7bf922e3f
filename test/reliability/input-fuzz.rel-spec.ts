import { describeInputFuzz } from '../support/input-fuzz.suite';
import { recordFigure } from './support/figures';

// A new seed each run (printed with the way to replay it), and many more strings per route.
describeInputFuzz(Date.now() % 2 ** 31, Number(process.env.FUZZ_RUNS ?? 400), (signed) => {
  recordFigure(
    'Bad input',
    'signed-layer fuzz: validly signed mutations sent',
    signed.count,
    '>= 1000',
  );
  recordFigure('Bad input', 'signed-layer fuzz: responses 5xx', signed.fiveXx, '0');
});
