import { describe, it, expect } from "vitest";
import { parse } from "./index.js";

describe("parse", () => {
  it("splits", () => {
    expect(parse("a/b")).toEqual(["a", "b"]);
  });
});
