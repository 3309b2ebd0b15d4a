export const add = (a: number, b: number): number => a + b;
export const note = 'never use as any or // @ts-ignore';
