<#
.SYNOPSIS
Installs the Allternit Driver on a Windows guest and registers the logon scheduled task
that runs it on loopback TCP with a per-launch token (install/PACKAGING.md).

.DESCRIPTION
Copies the driver into -InstallDir (a compiled allternit-driver.exe from -Binary, or the
bundle from -Bundle run by the pinned deno.exe from -Deno), prepares the user's data folder
%APPDATA%\Allternit\computer-use\driver with an ACL for that user, SYSTEM and
Administrators only (endpoint.json, which the driver rewrites with a new token at every
launch, inherits it), writes the allternit-driver-rpc.cmd forwarder (with endpoint-env.ps1
from beside this script), puts -InstallDir on
the machine PATH, and registers a task that starts `serve --tcp` when -User logs on.
The task runs in the user's interactive session: UI Automation only sees that desktop.
Run it elevated. Windows PowerShell 5.1 or later.

.EXAMPLE
.\register-logon-task.ps1 -Binary .\allternit-driver-0.1.0-x86_64-pc-windows-msvc.exe -User guest
.\register-logon-task.ps1 -Bundle .\bundle\allternit-driver.js -Deno .\deno.exe -User guest
#>
[CmdletBinding()]
param(
  [string]$Binary,
  [string]$Bundle,
  [string]$Deno,
  [string]$InstallDir = (Join-Path $env:ProgramFiles 'Allternit\driver'),
  [string]$User = "$env:USERDOMAIN\$env:USERNAME",
  [string]$DataDir,
  [string]$TaskName = 'Allternit Driver',
  [switch]$ShowConsole
)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 3

function Fail([string]$Reason) {
  [Console]::Error.WriteLine("register: $Reason")
  exit 1
}

$identity = [Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()
if (-not $identity.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
  Fail 'run this script elevated (as Administrator)'
}
if ($Binary) {
  if ($Bundle -or $Deno) { Fail 'give either -Binary or -Bundle with -Deno, not both' }
  if (-not (Test-Path -LiteralPath $Binary -PathType Leaf)) { Fail "no binary at '$Binary'" }
} elseif ($Bundle -and $Deno) {
  if (-not (Test-Path -LiteralPath $Bundle -PathType Leaf)) { Fail "no bundle at '$Bundle'" }
  if (-not (Test-Path -LiteralPath $Deno -PathType Leaf)) { Fail "no deno.exe at '$Deno'" }
} else {
  Fail 'give -Binary PATH, or -Bundle PATH with -Deno PATH'
}

# --- the user and their data folder -----------------------------------------------------
try {
  $sid = (New-Object Security.Principal.NTAccount($User)).Translate([Security.Principal.SecurityIdentifier]).Value
} catch {
  Fail "no such user '$User'"
}
if (-not $DataDir) {
  if ($sid -eq [Security.Principal.WindowsIdentity]::GetCurrent().User.Value) {
    $DataDir = Join-Path $env:APPDATA 'Allternit'
  } else {
    $userProfile = Get-CimInstance Win32_UserProfile | Where-Object { $_.SID -eq $sid }
    if (-not $userProfile) { Fail "user '$User' has no profile yet: log on once, or give -DataDir" }
    $DataDir = Join-Path $userProfile.LocalPath 'AppData\Roaming\Allternit'
  }
}
$driverDir = Join-Path $DataDir 'computer-use\driver'
$endpointFile = Join-Path $driverDir 'endpoint.json'
New-Item -ItemType Directory -Force -Path $driverDir | Out-Null
# Owner-only, like 0700/0600 elsewhere: no inherited entries; the user, SYSTEM (the guest
# exec channel) and Administrators. Files the driver creates here inherit this.
$acl = New-Object Security.AccessControl.DirectorySecurity
$acl.SetAccessRuleProtection($true, $false)
$inherit = [Security.AccessControl.InheritanceFlags]'ContainerInherit, ObjectInherit'
foreach ($who in @($sid, 'S-1-5-18', 'S-1-5-32-544')) {
  $account = New-Object Security.Principal.SecurityIdentifier($who)
  $rule = New-Object Security.AccessControl.FileSystemAccessRule($account, 'FullControl', $inherit, 'None', 'Allow')
  $acl.AddAccessRule($rule)
}
Set-Acl -LiteralPath $driverDir -AclObject $acl
if (Test-Path -LiteralPath $endpointFile) {
  $fileAcl = New-Object Security.AccessControl.FileSecurity
  $fileAcl.SetAccessRuleProtection($true, $false)
  foreach ($rule in $acl.Access) {
    $fileAcl.AddAccessRule((New-Object Security.AccessControl.FileSystemAccessRule($rule.IdentityReference, 'FullControl', 'Allow')))
  }
  Set-Acl -LiteralPath $endpointFile -AclObject $fileAcl
}

# --- the program ------------------------------------------------------------------------
New-Item -ItemType Directory -Force -Path $InstallDir | Out-Null
if ($Binary) {
  $exe = Join-Path $InstallDir 'allternit-driver.exe'
  Copy-Item -LiteralPath $Binary -Destination $exe -Force
  $prefix = @()
  $launcher = '"%~dp0allternit-driver.exe" %*'
} else {
  $exe = Join-Path $InstallDir 'deno.exe'
  $js = Join-Path $InstallDir 'allternit-driver.js'
  Copy-Item -LiteralPath $Deno -Destination $exe -Force
  # The bundle is a tree: allternit-driver.js, the chunks beside it and each command's entry.
  Copy-Item -Path (Join-Path (Split-Path -Parent $Bundle) '*') -Destination $InstallDir -Recurse -Force
  # The V8 flags are cli/v8_flags.ts's (a compiled binary has them built in).
  $prefix = @('run', '--allow-all', '--v8-flags=--max-semi-space-size=1', '--no-config', '--cached-only', "`"$js`"")
  $launcher = '"%~dp0deno.exe" run --allow-all --v8-flags=--max-semi-space-size=1 --no-config --cached-only "%~dp0allternit-driver.js" %*'
}
$lines = @('@echo off', 'rem allternit-driver: the driver installed by register-logon-task.ps1', $launcher)
Set-Content -LiteralPath (Join-Path $InstallDir 'allternit-driver.cmd') -Value $lines -Encoding Ascii

# The forwarder reads the endpoint and this launch's token from endpoint.json each time
# (through endpoint-env.ps1: cmd cannot read JSON), so it survives driver restarts.
Copy-Item -LiteralPath (Join-Path $PSScriptRoot 'endpoint-env.ps1') -Destination $InstallDir -Force
$rpc = @(
  '@echo off',
  'rem allternit-driver-rpc: JSON-RPC lines on stdin to the driver, answers on stdout.',
  'rem Exit codes: 0 all answered, 3 no driver, 4 connection lost.',
  'setlocal',
  "set `"ALLTERNIT_ENDPOINT_FILE=$endpointFile`"",
  'set ALLTERNIT_DRIVER_TOKEN=',
  'for /f "usebackq delims=" %%L in (`powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -File "%~dp0endpoint-env.ps1" "%ALLTERNIT_ENDPOINT_FILE%"`) do set "%%L"',
  'if not defined ALLTERNIT_DRIVER_TOKEN (',
  '  echo allternit-driver-rpc: no driver endpoint in "%ALLTERNIT_ENDPOINT_FILE%" 1>&2',
  '  exit /b 3',
  ')',
  'call "%~dp0allternit-driver.cmd" rpc %*',
  'exit /b %ERRORLEVEL%'
)
Set-Content -LiteralPath (Join-Path $InstallDir 'allternit-driver-rpc.cmd') -Value $rpc -Encoding Ascii

$machinePath = [Environment]::GetEnvironmentVariable('Path', 'Machine')
if (($machinePath -split ';') -notcontains $InstallDir) {
  [Environment]::SetEnvironmentVariable('Path', "$machinePath;$InstallDir", 'Machine')
}

# --- the logon task ---------------------------------------------------------------------
$serveArgs = $prefix + @('serve', '--tcp', '--data-dir', "`"$DataDir`"")
if ($ShowConsole) {
  $action = New-ScheduledTaskAction -Execute $exe -Argument ($serveArgs -join ' ') -WorkingDirectory $InstallDir
} else {
  # conhost --headless (Windows 10 1809+) gives the console program no window to show.
  $conhost = Join-Path $env:SystemRoot 'System32\conhost.exe'
  $argument = (@('--headless', "`"$exe`"") + $serveArgs) -join ' '
  $action = New-ScheduledTaskAction -Execute $conhost -Argument $argument -WorkingDirectory $InstallDir
}
$trigger = New-ScheduledTaskTrigger -AtLogOn -User $User
$principal = New-ScheduledTaskPrincipal -UserId $User -LogonType Interactive -RunLevel Limited
$settings = New-ScheduledTaskSettingsSet -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries `
  -ExecutionTimeLimit ([TimeSpan]::Zero) -MultipleInstances IgnoreNew `
  -RestartCount 3 -RestartInterval (New-TimeSpan -Minutes 1)
Register-ScheduledTask -TaskName $TaskName -Action $action -Trigger $trigger -Principal $principal `
  -Settings $settings -Description 'Allternit Driver on loopback TCP (token in endpoint.json)' -Force | Out-Null

Write-Output "register: task '$TaskName' runs the driver for $User at logon; endpoint file $endpointFile"
