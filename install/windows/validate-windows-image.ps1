<#
.SYNOPSIS
Checks a Windows image before it ships (install/PACKAGING.md): the logon task is registered
and running, `hello` over loopback TCP with the launch token reports protocol 1 and the
-Engine engine available, and a real read_ui of a running app has at least -Min elements.
Exits 0 with one "validate: ok ..." line, or 1 with one "validate: ..." reason on stderr.

.EXAMPLE
.\validate-windows-image.ps1 -App notepad
#>
[CmdletBinding()]
param(
  [string]$TaskName = 'Allternit Driver',
  [string]$EndpointFile = (Join-Path $env:APPDATA 'Allternit\computer-use\driver\endpoint.json'),
  [string]$App,
  [int]$Min = 5,
  [string]$Engine = 'uia',
  [int]$TimeoutSeconds = 120
)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 3

function Fail([string]$Reason) {
  [Console]::Error.WriteLine("validate: $Reason")
  exit 1
}

# --- the task ---------------------------------------------------------------------------
$task = Get-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue
if (-not $task) { Fail "scheduled task '$TaskName' is not registered" }
if ($task.State -ne 'Running') { Fail "scheduled task '$TaskName' is not running (state: $($task.State))" }

# --- the endpoint and token -------------------------------------------------------------
if (-not (Test-Path -LiteralPath $EndpointFile -PathType Leaf)) { Fail "no endpoint file at '$EndpointFile'" }
$endpoint = Get-Content -Raw -LiteralPath $EndpointFile | ConvertFrom-Json
$colon = $endpoint.endpoint.LastIndexOf(':')
$hostName = $endpoint.endpoint.Substring(0, $colon).Trim('[', ']')
$port = [int]$endpoint.endpoint.Substring($colon + 1)

# --- one connection: hello, list_apps, read_ui ------------------------------------------
$target = @{ max_elements = 1000 }
if ($App) { $target.app = $App }
$requests = @(
  @{ jsonrpc = '2.0'; id = 1; method = 'hello'; token = $endpoint.token },
  @{ jsonrpc = '2.0'; id = 2; method = 'list_apps'; token = $endpoint.token },
  @{ jsonrpc = '2.0'; id = 3; method = 'read_ui'; params = $target; token = $endpoint.token }
)
$answers = @{}
$client = New-Object Net.Sockets.TcpClient
try {
  try {
    $client.Connect($hostName, $port)
  } catch {
    Fail "no driver answers on $($endpoint.endpoint)"
  }
  $stream = $client.GetStream()
  $stream.ReadTimeout = $TimeoutSeconds * 1000
  $utf8 = New-Object Text.UTF8Encoding($false)
  $writer = New-Object IO.StreamWriter($stream, $utf8)
  $writer.NewLine = "`n"
  foreach ($request in $requests) { $writer.WriteLine(($request | ConvertTo-Json -Compress -Depth 5)) }
  $writer.Flush()
  $reader = New-Object IO.StreamReader($stream, $utf8)
  while ($answers.Count -lt $requests.Count) {
    try {
      $line = $reader.ReadLine()
    } catch {
      Fail "the driver did not answer within $TimeoutSeconds s on $($endpoint.endpoint)"
    }
    if ($null -eq $line) { Fail 'the driver closed the connection before answering' }
    $answer = $line | ConvertFrom-Json
    $answers[[int]$answer.id] = $answer
  }
} finally {
  $client.Close()
}

# --- judge ------------------------------------------------------------------------------
function Member($Object, [string]$Name) {
  if ($null -ne $Object -and $Object.PSObject.Properties[$Name]) { return $Object.$Name }
  return $null
}
$hello = $answers[1]
$helloError = Member $hello 'error'
if ($helloError) { Fail "hello failed: $($helloError.message)" }
if ($hello.result.protocol -ne 1) { Fail "hello reports protocol '$($hello.result.protocol)', expected 1" }
$report = @($hello.result.engines | Where-Object { $_.name -eq $Engine }) | Select-Object -First 1
if (-not $report) { Fail "hello lists no $Engine engine" }
if (-not $report.available) {
  $why = Member $report 'reason'
  if (-not $why) { $why = 'no reason given' }
  Fail "the $Engine engine is not available: $why"
}
$listResult = Member $answers[2] 'result'
$windowed = @()
if ($listResult) { $windowed = @($listResult.apps | Where-Object { @($_.windows).Count -gt 0 }) }
if (-not $App -and $windowed.Count -eq 0) { Fail 'no app is running' }
$readError = Member $answers[3] 'error'
if ($readError) {
  $code = Member (Member $readError 'data') 'code'
  if ($code -eq 'app_not_running') { Fail "$App is not running" }
  if (-not $App) { $App = 'the frontmost app' }
  Fail "read_ui of $App failed: ${code}: $($readError.message)"
}
$read = $answers[3].result
$name = Member $read 'app'
if (-not $name) { $name = $App }
$elements = Member $read 'elements'
$count = 0
if ($null -ne $elements) { $count = @($elements).Count }
if ($count -lt $Min) { Fail "read_ui of $name returned $count elements (fewer than $Min)" }
Write-Output "validate: ok: task running, protocol 1, $Engine available, read_ui of $name returned $count elements"
exit 0
