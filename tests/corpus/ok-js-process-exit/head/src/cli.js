if (failed) {
  process.exit(1);
}
