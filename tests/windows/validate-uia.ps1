<#
.SYNOPSIS
Validates the UIA engine (engines/uia) on a real Windows desktop. Starts its own driver on
loopback TCP with a launch token, then checks over that connection: hello (protocol 1, the
uia engine available, a wrong token refused), read_ui of Notepad and of Calculator, the
Calculator batch Clear 7 + 8 = pressed by element id with the display reading 15, typing
into Notepad, and a screenshot. Exits 0 with "validate-uia: ok ...", or 1 at the first
failure. Written on Linux and never run on Windows by its author: see README.md.

The installed service (logon task, endpoint file) is checked by
install\windows\validate-windows-image.ps1; -ImageCheck runs that script first.

.PARAMETER Driver
'source' (default) runs `deno run -A main.ts` from this checkout; otherwise the path to an
allternit-driver.exe.

.EXAMPLE
powershell -ExecutionPolicy Bypass -File tests\windows\validate-uia.ps1
.EXAMPLE
.\validate-uia.ps1 -Driver C:\Tools\allternit-driver.exe -ImageCheck
#>
[CmdletBinding()]
param(
  [string]$Driver = 'source',
  [string]$Deno = 'deno',
  [switch]$ImageCheck,
  [switch]$KeepApps,
  [int]$TimeoutSeconds = 60,
  # English Calculator names; change them on another display language.
  [string[]]$CalcButtons = @('Clear', 'Seven', 'Plus', 'Eight', 'Equals'),
  [string]$CalcDisplay = 'Display is',
  [string]$CalcExpect = '15'
)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 3

$repo = (Resolve-Path (Join-Path $PSScriptRoot '..\..')).Path
$script:passed = 0
$script:nextId = 1
$started = @()      # process ids this script started (apps), stopped at the end
$driverProc = $null
$client = $null
$dataDir = Join-Path ([IO.Path]::GetTempPath()) ("allternit-uia-" + [Guid]::NewGuid().ToString('N'))

function Fail([string]$Check, [string]$Why) {
  [Console]::Error.WriteLine("validate-uia: FAIL ${Check}: $Why")
  throw "validate-uia failed"
}
function Pass([string]$Check, [string]$Detail) {
  $script:passed++
  Write-Output "validate-uia: PASS $Check ($Detail)"
}
function Warn([string]$Check, [string]$Detail) {
  Write-Output "validate-uia: WARN $Check ($Detail)"
}
function Member($Object, [string]$Name) {
  if ($null -ne $Object -and $Object.PSObject.Properties[$Name]) { return $Object.$Name }
  return $null
}
function Wait-Until([string]$What, [scriptblock]$Probe) {
  $deadline = (Get-Date).AddSeconds($TimeoutSeconds)
  $pause = 50
  while ($true) {
    $value = & $Probe
    if ($null -ne $value) { return $value }
    if ((Get-Date) -gt $deadline) { Fail $What "not within $TimeoutSeconds s" }
    Start-Sleep -Milliseconds $pause
    $pause = [Math]::Min($pause * 2, 500)
  }
}

# One request on the open connection; returns the whole answer (result or error).
function Invoke-Rpc([string]$Method, $Params = $null, [string]$Token = $script:token) {
  $id = $script:nextId++
  $request = [ordered]@{ jsonrpc = '2.0'; id = $id; method = $Method; token = $Token }
  if ($null -ne $Params) { $request.params = $Params }
  $script:writer.WriteLine(($request | ConvertTo-Json -Compress -Depth 20))
  $script:writer.Flush()
  while ($true) {
    $line = $script:reader.ReadLine()
    if ($null -eq $line) { Fail $Method 'the driver closed the connection' }
    $answer = $line | ConvertFrom-Json
    if ((Member $answer 'id') -eq $id) { return $answer }
  }
}
# The result of a request that must succeed.
function Call([string]$Check, [string]$Method, $Params = $null) {
  $answer = Invoke-Rpc $Method $Params
  $err = Member $answer 'error'
  if ($err) {
    $code = Member (Member $err 'data') 'code'
    Fail $Check "$Method answered ${code}: $($err.message)"
  }
  return $answer.result
}
function Find-Window([scriptblock]$Match) {
  $apps = (Call 'list_apps' 'list_apps').apps
  foreach ($app in @($apps)) {
    foreach ($w in @($app.windows)) {
      if (& $Match $app $w) { return [pscustomobject]@{ app = $app; window = $w } }
    }
  }
  return $null
}
function Element-Named($Read, [string]$Name) {
  return @($Read.elements | Where-Object { $_.name -eq $Name }) | Select-Object -First 1
}

try {
  # --- a driver of our own, on loopback TCP ---------------------------------------------
  New-Item -ItemType Directory -Path $dataDir | Out-Null
  $out = Join-Path $dataDir 'serve.out'
  $errFile = Join-Path $dataDir 'serve.err'
  $env:ALLTERNIT_CHECK_RESULTS = '1'   # the driver validates every answer against its schema
  $serveArgs = @('serve', '--tcp', '--data-dir', "`"$dataDir`"")
  if ($Driver -eq 'source') {
    $driverProc = Start-Process -FilePath $Deno -ArgumentList (@('run', '-A', 'main.ts') + $serveArgs) `
      -WorkingDirectory $repo -RedirectStandardOutput $out -RedirectStandardError $errFile `
      -NoNewWindow -PassThru
  } else {
    $driverProc = Start-Process -FilePath $Driver -ArgumentList $serveArgs -WorkingDirectory $repo `
      -RedirectStandardOutput $out -RedirectStandardError $errFile -NoNewWindow -PassThru
  }
  $ready = Wait-Until 'driver ready line' {
    if ($driverProc.HasExited) { Fail 'serve' "the driver exited with $($driverProc.ExitCode): $(Get-Content -Raw $errFile)" }
    $line = Get-Content -LiteralPath $out -ErrorAction SilentlyContinue | Select-Object -First 1
    if ($line) { $line | ConvertFrom-Json } else { $null }
  }
  $script:token = $ready.token
  $colon = $ready.endpoint.LastIndexOf(':')
  $client = New-Object Net.Sockets.TcpClient
  $client.Connect($ready.endpoint.Substring(0, $colon), [int]$ready.endpoint.Substring($colon + 1))
  $stream = $client.GetStream()
  $stream.ReadTimeout = $TimeoutSeconds * 1000
  $utf8 = New-Object Text.UTF8Encoding($false)
  $script:writer = New-Object IO.StreamWriter($stream, $utf8)
  $script:writer.NewLine = "`n"
  $script:reader = New-Object IO.StreamReader($stream, $utf8)
  Pass 'serve' "listening on $($ready.endpoint)"

  if ($ImageCheck) {
    & (Join-Path $repo 'install\windows\validate-windows-image.ps1') -App notepad
    if ($LASTEXITCODE -ne 0) { Fail 'image' 'install\windows\validate-windows-image.ps1 failed' }
    Pass 'image' 'validate-windows-image.ps1'
  }

  # --- hello, and the token is enforced -------------------------------------------------
  $hello = Call 'hello' 'hello'
  if ($hello.protocol -ne 1) { Fail 'hello' "protocol is '$($hello.protocol)', expected 1" }
  $uia = @($hello.engines | Where-Object { $_.name -eq 'uia' }) | Select-Object -First 1
  if (-not $uia) { Fail 'hello' 'no uia engine listed' }
  if (-not $uia.available) { Fail 'hello' "uia is unavailable: $(Member $uia 'reason')" }
  Pass 'hello' "os $($hello.os), uia available, $(@($uia.ops).Count) ops"
  $refused = Invoke-Rpc 'hello' $null 'not-the-token'
  if ((Member (Member (Member $refused 'error') 'data') 'code') -ne 'unauthorized') {
    Fail 'token' 'a request with a wrong token was not refused as unauthorized'
  }
  Pass 'token' 'a wrong token is refused'

  # --- Notepad: read, type, read back ---------------------------------------------------
  $np = Start-Process -FilePath 'notepad.exe' -PassThru
  $started += $np.Id
  $found = Wait-Until 'a Notepad window' {
    Find-Window { param($a, $w) $a.name -ieq 'notepad' }
  }
  $started += $found.app.pid
  $read = Call 'read_ui notepad' 'read_ui' @{ window = $found.window.window }
  $count = @($read.elements).Count
  if ($count -lt 5) { Fail 'read_ui notepad' "only $count elements" }
  Pass 'read_ui notepad' "$count elements in $($read.ms) ms, live $(Member (Member $read 'live') 'state')"
  $doc = @($read.elements | Where-Object { $_.role -in @('AXTextArea', 'AXTextField') }) | Select-Object -First 1
  if (-not $doc) { Fail 'notepad text' 'no AXTextArea or AXTextField in the map' }
  $text = 'Allternit UIA check'
  $act = Call 'act type_text' 'act' @{
    window = $found.window.window; version = $read.version; id = $doc.id; action = 'type_text'; value = $text
  }
  Pass 'act type_text' "via $(Member $act 'via'), settled $(Member $act 'settled') in $(Member $act 'settle_ms') ms"
  $again = Call 'read_ui notepad again' 'read_ui' @{ window = $found.window.window; fresh = $true }
  $typed = @($again.elements | Where-Object { (Member $_ 'value') -like "*$text*" })
  if ($typed.Count -gt 0) { Pass 'typed text read back' "version $($again.version)" }
  else { Warn 'typed text read back' 'the document exposes no Value; check the window by eye' }

  # --- Calculator: read, batch 7 + 8 =, display 15, screenshot --------------------------
  Start-Process -FilePath 'calc.exe' | Out-Null
  $calc = Wait-Until 'a Calculator window' {
    Find-Window { param($a, $w) $w.title -like '*Calculator*' }
  }
  $started += $calc.app.pid
  $window = $calc.window.window
  $read = Wait-Until 'the Calculator keypad' {
    $r = Call 'read_ui calculator' 'read_ui' @{ window = $window; fresh = $true }
    if (Element-Named $r $CalcButtons[1]) { $r } else { $null }
  }
  Pass 'read_ui calculator' "$(@($read.elements).Count) elements in $($read.ms) ms (app '$($calc.app.name)')"
  $steps = @()
  foreach ($name in $CalcButtons) {
    $el = Element-Named $read $name
    if (-not $el) { Fail 'calculator buttons' "no element named '$name' (see -CalcButtons)" }
    $steps += @{ id = $el.id; action = 'press' }
  }
  $batch = Call 'run_batch' 'run_batch' @{ window = $window; version = $read.version; steps = $steps }
  $failed = @($batch.results | Where-Object { -not $_.ok })
  if ($failed.Count -gt 0) {
    Fail 'run_batch' "$($failed.Count) steps failed: $(Member (Member $failed[0] 'error') 'message')"
  }
  $settles = ($batch.results | ForEach-Object { "$(Member $_ 'via')/$(Member $_ 'settled')" }) -join ' '
  Pass 'run_batch' "$($steps.Count) steps: $settles"
  $display = Wait-Until 'the display to read 15' {
    $f = Call 'find' 'find' @{ window = $window; query = @{ name_contains = $CalcDisplay } }
    $d = @($f.elements) | Select-Object -First 1
    if ($d -and $d.name -match "\b$CalcExpect\b") { $d } else { $null }
  }
  Pass 'calculator result' "'$($display.name)'"
  $shot = Call 'screenshot' 'screenshot' @{ window = $window }
  if ($shot.width -lt 50 -or $shot.png.Length -lt 100) { Fail 'screenshot' "$($shot.width)x$($shot.height)" }
  Pass 'screenshot' "$($shot.width)x$($shot.height), $($shot.png.Length) base64 chars"

  Write-Output "validate-uia: ok: $($script:passed) checks passed"
  $code = 0
} catch {
  if ("$_" -ne 'validate-uia failed') { [Console]::Error.WriteLine("validate-uia: FAIL: $_") }
  $code = 1
} finally {
  if ($client) { $client.Close() }
  if ($driverProc -and -not $driverProc.HasExited) { Stop-Process -Id $driverProc.Id -Force }
  if (-not $KeepApps) {
    foreach ($id in ($started | Select-Object -Unique)) {
      Stop-Process -Id $id -Force -ErrorAction SilentlyContinue
    }
  }
  Remove-Item -Recurse -Force -LiteralPath $dataDir -ErrorAction SilentlyContinue
}
exit $code
