// asl-validator 4.0.0 ships no type declarations; this is the part of its API the tests use.
declare module 'asl-validator' {
  interface AslValidatorOptions {
    checkPaths?: boolean;
    checkArn?: boolean;
  }
  interface AslValidatorResult {
    isValid: boolean;
    errors: { message?: string; errorCode?: string }[];
    errorsText: (separator?: string) => string;
  }
  function aslValidator(definition: unknown, options?: AslValidatorOptions): AslValidatorResult;
  export = aslValidator;
}
