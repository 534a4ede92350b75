import { z } from 'zod';

/** The login form's rules (docs/domain.md#login). */
export const LoginFormSchema = z.object({
  email: z.email('Please enter a valid email address'),
  password: z.string().min(1, 'Password is required'),
  rememberMe: z.boolean().optional(),
});

const CREDENTIAL_ERRORS = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'InvalidPasswordException',
  'PasswordResetRequiredException',
]);

/** docs/error-catalogue.md#auth-and-lookup: the server's message if any, wrong credentials as "Invalid credentials", else "Login failed". */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof Error) {
    if (CREDENTIAL_ERRORS.has(error.name)) return 'Invalid credentials';
    // A user pool trigger that refused the sign-in ("SSO only", docs/sso.md#sso-only): Cognito wraps its message.
    if (error.name === 'UserLambdaValidationException')
      return error.message.replace(/^\w+ failed with error /, '').replace(/\.\.$/, '.');
    if (error.name === 'ApiRequestError' && error.message) return error.message;
    if (error.message && error.name !== 'Error') return error.message;
    if (error.message) return error.message;
  }
  return 'Login failed';
}
