// Whether untrusted JSON is a plain object (what JSON.parse and structured clone make), for the
// files Baton reads. The API's argument checks are the contract's: src/shared/apiChecks.ts.
export { isPlainObject } from "../../shared/apiChecks.js";
