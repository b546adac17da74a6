export * from "./client.js";
export * from "./errors.js";
export * from "./hash.js";
export * from "./journal.js";
export * from "./pagination.js";
export * from "./retry.js";
export * from "./wire-errors.js";
export * from "./credentials.js";
