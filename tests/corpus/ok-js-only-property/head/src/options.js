export const options = {};
options.only = true;
options.skip = 3;
