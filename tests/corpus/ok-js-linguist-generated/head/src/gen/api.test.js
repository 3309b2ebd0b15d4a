it.only('generated', () => {});
/* eslint-disable */
