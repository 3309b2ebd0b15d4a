import { bench, describe } from "vitest";
import { parse } from "./index.js";

describe("parse", () => {
  bench("short path", () => {
    parse("/a/b/c");
  });
});
