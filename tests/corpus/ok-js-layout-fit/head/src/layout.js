export const box = fit(size);
this.skip(2);
