import { z } from 'zod';

/** Record section 5, "Login". */
export const LoginFormSchema = z.object({
  email: z.email('Please enter a valid email address'),
  password: z.string().min(1, 'Password is required'),
  rememberMe: z.boolean().optional(),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

const CREDENTIAL_ERRORS = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'InvalidPasswordException',
  'PasswordResetRequiredException',
]);

/** Record section 8: the server's message if any, wrong credentials as "Invalid credentials", else "Login failed". */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof Error) {
    if (CREDENTIAL_ERRORS.has(error.name)) return 'Invalid credentials';
    if (error.name === 'ApiRequestError' && error.message) return error.message;
    if (error.message && error.name !== 'Error') return error.message;
    if (error.message) return error.message;
  }
  return 'Login failed';
}
