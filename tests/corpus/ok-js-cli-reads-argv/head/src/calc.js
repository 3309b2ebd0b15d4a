export function add(a, b) {
  return a + b;
}

// `calc 2 3` prints 5; the tests call add directly
if (process.argv[1] && process.argv[1].endsWith('calc.js')) {
  const [a, b] = process.argv.slice(2).map(Number);
  console.log(add(a, b));
}
