<#
.SYNOPSIS
Prints the running driver's endpoint and this launch's token as NAME=value lines, for
allternit-driver-rpc.cmd to set before it starts the forwarder. Installed beside it by
register-logon-task.ps1. Prints nothing (exit 3) when there is no endpoint file.
#>
param([Parameter(Mandatory = $true)][string]$File)
$ErrorActionPreference = 'Stop'
if (-not (Test-Path -LiteralPath $File -PathType Leaf)) { exit 3 }
$endpoint = Get-Content -Raw -LiteralPath $File | ConvertFrom-Json
Write-Output "ALLTERNIT_DRIVER_ENDPOINT=$($endpoint.endpoint)"
Write-Output "ALLTERNIT_DRIVER_TOKEN=$($endpoint.token)"
