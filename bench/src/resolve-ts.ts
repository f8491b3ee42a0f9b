// Loaded with `node --import` by the bench's raw reference server, so it can run the repositories'
// TypeScript sources as they are (Node strips the types): their relative imports name no
// extension, as the bundler that builds the apps allows; this adds `.ts` where Node finds nothing.
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (specifier.startsWith(".") && !/\.[cm]?[jt]s$/.test(specifier)) {
        return nextResolve(`${specifier}.ts`, context);
      }
      throw error;
    }
  },
});
