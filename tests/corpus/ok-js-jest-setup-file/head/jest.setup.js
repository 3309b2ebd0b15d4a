jest.setTimeout(10000);
