export class CalcError extends Error {
  constructor(message) {
    super(message);
    Error.captureStackTrace?.(this, CalcError);
  }
}
const quiet = process.env.NODE_ENV === 'production';
export function add(a, b) {
  if (!quiet && typeof a !== 'number') console.warn(new CalcError('not a number').stack);
  return a + b;
}
