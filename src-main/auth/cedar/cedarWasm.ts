// The one way into @cedar-policy/cedar-wasm: each binding is called through a
// Proxy, so TurboFan never inlines its JS->Wasm call into the function that
// calls it. Why: Node 20's V8 (11.3) aborts the whole process ("unreachable
// code" in Deoptimizer::DoComputeBuiltinContinuation) when an optimized
// function with an inlined JS->Wasm call returning externref (every
// wasm-bindgen export here) is lazily deoptimized while that call runs; Cedar
// calls back into JS, which can invalidate the caller's code dependencies
// (seen in ~1 of 4 sync fuzz runs). Through the Proxy the binding runs in a
// frame of its own, a one-line wrapper with nothing to invalidate, and a
// deoptimized caller resumes like after any other call.
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';

const opaque = <F extends object>(binding: F): F => new Proxy(binding, {});

export const checkParsePolicySet = opaque(cedar.checkParsePolicySet);
export const isAuthorized = opaque(cedar.isAuthorized);
export const isAuthorizedPartial = opaque(cedar.isAuthorizedPartial);
export const policySetTextToParts = opaque(cedar.policySetTextToParts);
export const policyToJson = opaque(cedar.policyToJson);
export const preparsePolicySet = opaque(cedar.preparsePolicySet);
export const preparseSchema = opaque(cedar.preparseSchema);
export const statefulIsAuthorized = opaque(cedar.statefulIsAuthorized);
export const validate = opaque(cedar.validate);
