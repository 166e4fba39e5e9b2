/* bcryptprimitives.dll for Wine 8, which does not ship it.
 *
 * Rust's standard library on Windows takes its random bytes from ProcessPrng in
 * bcryptprimitives.dll (Windows 10 and later). Wine 8 lacks that DLL, so every Rust program
 * fails to start under it with "Library bcryptprimitives.dll not found". This DLL, placed
 * beside the .exe, exports ProcessPrng over RtlGenRandom (SystemFunction036 in advapi32),
 * the operating system's own generator, which Wine has. Only the Wine runner
 * (cross/windows/run.sh) puts it beside a program: Windows 10 and later have their own, and
 * a release never carries this one. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
